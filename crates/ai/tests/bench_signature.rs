//! The bench node count is the search's signature: any change in search or evaluation behaviour
//! changes it, and this snapshot makes that change visible in review (`cargo insta review`).

#[test]
fn bench_signature() {
    // Two plies below `crown bench` depths, to keep the test fast; the signature is just as sensitive.
    let lines = crown_ai::bench::bench(-2, &mut |_| {});
    let mut report = String::new();
    for l in &lines {
        report.push_str(&format!(
            "{:<8} depth {:>2} nodes {:>9} best {:<6} {}\n",
            l.variant.id(),
            l.depth,
            l.nodes,
            l.best_move,
            l.fen
        ));
    }
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    report.push_str(&format!("total nodes {total}\n"));
    insta::assert_snapshot!(report);
}
