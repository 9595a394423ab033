//! Engine specs of `crown match`: `--engine-a` / `--engine-b` text, comma-separated key=value.

use crate::CliError;
use crown_ai::{Clock, EngineOptions, Limits, SearchTweaks, TweakError, MAX_HASH_MIB};
use std::sync::Arc;

/// One engine's settings, parsed from a SPEC.
#[derive(Clone, Debug)]
pub(super) struct Spec {
    pub(super) text: String,
    pub(super) limits: Limits,
    pub(super) options: EngineOptions,
    /// Game clock (start time, increment) in ms.
    pub(super) clock: Option<Clock>,
    /// Use the endgame databases (`egdb=1`, the default).
    pub(super) egdb: bool,
    /// Evaluation (`eval=classic|trained|network`); `None` = the game's default.
    pub(super) eval: Option<crown_ai::eval::EvalKind>,
    /// Search switches (the keys of [`SearchTweaks::KEYS`]); unset ones keep the game's default.
    pub(super) tweaks: SearchTweaks,
    /// Opening book (`book=0|1`); `None` = the match's `--book`.
    pub(super) book: Option<bool>,
    /// Trained weights read from `weights=FILE`, used instead of the evaluation in games of their
    /// variant.
    pub(super) weights: Option<Arc<crown_ai::trained::Weights>>,
    /// The network read from `network=FILE` (with `eval=network`, which it implies).
    pub(super) network: Option<Arc<crown_ai::eval::network::Network>>,
    /// The keys the spec gives, in order (each at most once).
    pub(super) keys: Vec<String>,
}

/// Parse an engine spec (see `--engine-a`); `movetime` caps its move time and `nodes` sets its
/// node budget (the match's `--movetime` and `--nodes`). With no limit at all, 100 ms a move.
///
/// # Errors
/// A one-line message naming the spec: empty, not key=value, a key twice or unknown, a value out
/// of range, an unreadable weights file, or `eval=classic` with `weights=`.
pub(super) fn parse_spec(
    text: &str,
    movetime: Option<u64>,
    nodes: Option<u64>,
) -> Result<Spec, CliError> {
    let mut limits = Limits::default();
    let mut options = EngineOptions {
        hash_mib: 16,
        threads: 1,
        level: None,
    };
    let mut clock: Option<Clock> = None;
    let mut egdb = true;
    let mut eval = None;
    let mut tweaks = SearchTweaks::default();
    let mut book = None;
    let mut weights = None;
    let mut network = None;
    let mut keys: Vec<String> = Vec::new();
    if text.split(',').all(|p| p.trim().is_empty()) {
        return Err(CliError(format!(
            "engine spec '{text}' is empty: give key=value pairs such as level=5 or depth=8"
        )));
    }
    let range = |name: &str, n: u64, lo: u64, hi: u64| {
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(CliError(format!(
                "engine spec '{text}': {name} {n} is not {lo} to {hi}"
            )))
        }
    };
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| CliError(format!("engine spec '{text}': '{part}' is not key=value")))?;
        let k = k.trim();
        if keys.iter().any(|seen| seen == k) {
            return Err(CliError(format!(
                "engine spec '{text}': {k} is given twice"
            )));
        }
        keys.push(k.to_string());
        let v = v.trim();
        if k == "eval" {
            eval = Some(
                v.parse()
                    .map_err(|e| CliError(format!("engine spec '{text}': {e}")))?,
            );
            continue;
        }
        if k == "weights" {
            if v.is_empty() {
                return Err(CliError(format!(
                    "engine spec '{text}': weights= needs a file name (weights=FILE)"
                )));
            }
            let bytes = std::fs::read(v)
                .map_err(|e| CliError(format!("engine spec '{text}': reading weights {v}: {e}")))?;
            let w = crown_ai::trained::Weights::from_bytes(&bytes)
                .map_err(|e| CliError(format!("engine spec '{text}': {v}: {e}")))?;
            weights = Some(Arc::new(w));
            continue;
        }
        if k == "network" {
            if v.is_empty() {
                return Err(CliError(format!(
                    "engine spec '{text}': network= needs a file name (network=FILE)"
                )));
            }
            let path = Some(std::path::Path::new(v));
            network = crate::common::read_network(path, Some(crown_ai::eval::EvalKind::Network))
                .map_err(|e| CliError(format!("engine spec '{text}': {}", e.0)))?;
            continue;
        }
        let n: u64 = v
            .parse()
            .map_err(|_| CliError(format!("engine spec '{text}': '{v}' is not a number")))?;
        match k {
            "level" => {
                let level = crown_ai::level::check(n)
                    .map_err(|e| CliError(format!("engine spec '{text}': {e}")))?;
                let l = Limits::level(level);
                limits.depth = l.depth;
                limits.movetime_ms = l.movetime_ms;
                options.level = Some(level);
            }
            "depth" => limits.depth = Some(range("depth", n, 1, crown_ai::MAX_PLY as u64)? as u32),
            "movetime" => limits.movetime_ms = Some(range("movetime", n, 1, u64::MAX)?),
            "nodes" => limits.nodes = Some(range("nodes", n, 1, u64::MAX)?),
            "hash" => options.hash_mib = range("hash", n, 1, MAX_HASH_MIB as u64)? as usize,
            "time" => {
                clock.get_or_insert(Clock::default()).remaining_ms = range("time", n, 1, u64::MAX)?
            }
            "inc" => clock.get_or_insert(Clock::default()).increment_ms = n,
            "egdb" => egdb = range("egdb", n, 0, 1)? == 1,
            "book" => book = Some(range("book", n, 0, 1)? == 1),
            "threads" => {
                options.threads =
                    range("threads", n, 1, crate::common::MAX_THREADS as u64)? as usize
            }
            _ => {
                tweaks.set(k, n).map_err(|e| match e {
                    TweakError::UnknownKey(_) => CliError(format!(
                        "engine spec '{text}': unknown key '{k}' (level, depth, movetime, nodes, hash, threads, time, inc, egdb, eval, {}, book, weights, network)",
                        tweak_keys().join(", ")
                    )),
                    e => CliError(format!("engine spec '{text}': {e}")),
                })?;
            }
        }
    }
    if clock.is_some_and(|c| c.remaining_ms == 0) {
        return Err(CliError(format!(
            "engine spec '{text}': inc= needs time= (the clock's time at the start, in ms)"
        )));
    }
    if eval == Some(crown_ai::eval::EvalKind::Classic) && weights.is_some() {
        return Err(CliError(format!(
            "engine spec '{text}': eval=classic and weights= contradict each other (the weights replace the evaluation)"
        )));
    }
    if network.is_some() {
        match eval {
            None => eval = Some(crown_ai::eval::EvalKind::Network),
            Some(crown_ai::eval::EvalKind::Network) => {}
            Some(_) => {
                return Err(CliError(format!(
                    "engine spec '{text}': network= goes with eval=network only"
                )))
            }
        }
    }
    if let Some(cap) = movetime {
        limits.movetime_ms = Some(limits.movetime_ms.map_or(cap, |m| m.min(cap)));
    }
    if let Some(n) = nodes {
        limits.nodes = Some(n);
    }
    if limits.depth.is_none()
        && limits.movetime_ms.is_none()
        && limits.nodes.is_none()
        && clock.is_none()
    {
        limits.movetime_ms = Some(100);
    }
    Ok(Spec {
        text: text.to_string(),
        limits,
        options,
        clock,
        egdb,
        eval,
        tweaks,
        book,
        weights,
        network,
        keys,
    })
}

/// The spec keys of the search switches ([`SearchTweaks::KEYS`]).
fn tweak_keys() -> Vec<&'static str> {
    SearchTweaks::KEYS.iter().map(|(k, _, _)| *k).collect()
}

/// Whether the `crown engine` protocol cannot set spec key `key` (docs/protocol.md has no such
/// `set-param`: the evaluation, the weights and every search switch), so that an engine B given by
/// `--engine-b-bin` cannot honour it.
fn built_in_only(key: &str) -> bool {
    key == "eval" || key == "weights" || key == "network" || tweak_keys().contains(&key)
}

/// Refuse a spec for `--engine-b-bin` that gives a key [`built_in_only`]: B would silently
/// play with another setup than the spec says.
pub(super) fn check_external_spec(spec: &Spec) -> Result<(), CliError> {
    match spec
        .keys
        .iter()
        .find(|k| built_in_only(k))
    {
        Some(k) => Err(CliError(format!(
            "engine B spec '{}': {k}= is for the built-in engine, not --engine-b-bin (the crown engine protocol cannot set it)",
            spec.text
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::Variant;

    fn parse_spec_t(text: &str, movetime: Option<u64>) -> Result<Spec, CliError> {
        parse_spec(text, movetime, None)
    }

    #[test]
    fn egdb_key_turns_the_databases_off() {
        assert!(parse_spec_t("depth=8", None).unwrap().egdb);
        assert!(!parse_spec_t("depth=8,egdb=0", None).unwrap().egdb);
        assert!(parse_spec_t("egdb=2", None).is_err());
    }

    #[test]
    fn spec_parsing() {
        let s = parse_spec_t("level=10", Some(100)).unwrap();
        assert_eq!(s.limits.movetime_ms, Some(100));
        assert_eq!(s.options.level, Some(10));
        let s = parse_spec_t("depth=8,hash=32", None).unwrap();
        assert_eq!(s.limits.depth, Some(8));
        assert_eq!(s.options.hash_mib, 32);
        assert!(parse_spec_t("level=11", None).is_err());
        // The unknown-key message lists every key, the clock ones included.
        let e = parse_spec_t("speed=3", None).unwrap_err().0;
        assert!(
            e.ends_with(
                "(level, depth, movetime, nodes, hash, threads, time, inc, egdb, eval, malus, rfp, rfpm, rfpd, futility, lmr, trunc, truncd, threat, tmargin, ext, iir, asp, probcut, mc, lmp, etc, cq, book, weights, network)"
            ),
            "{e}"
        );
        for empty in ["", " ", ",", " , "] {
            let e = parse_spec_t(empty, None).unwrap_err().0;
            assert!(e.contains("is empty"), "{e}");
        }
        assert!(parse_spec_t("hash=0", None).is_err());
        assert!(parse_spec_t("threads=0", None).is_err());
        assert!(parse_spec_t("depth=0", None).is_err());
        let s = parse_spec_t("time=1000,inc=100", None).unwrap();
        assert_eq!(
            s.clock,
            Some(Clock {
                remaining_ms: 1000,
                increment_ms: 100
            })
        );
    }

    /// `network=FILE` reads a network file and implies `eval=network`; `eval=network` needs it, any
    /// other evaluation contradicts it, and a damaged file is refused with its reason.
    #[test]
    fn network_key_reads_a_network_file() {
        let bytes =
            include_bytes!("../../../../../crates/ai/tests/data/network/american-small.nnue");
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("a.nnue");
        std::fs::write(&good, bytes).unwrap();
        let s = parse_spec_t(&format!("nodes=100,network={}", good.display()), None).unwrap();
        assert_eq!(s.eval, Some(crown_ai::eval::EvalKind::Network));
        assert_eq!(
            s.network.as_ref().map(|n| n.variant),
            Some(Variant::American)
        );
        let s = parse_spec_t(&format!("eval=network,network={}", good.display()), None).unwrap();
        assert!(s.network.is_some());
        // eval=network alone: the embedded network (American's default).
        let s = parse_spec_t("nodes=100,eval=network", None).unwrap();
        assert_eq!(s.eval, Some(crown_ai::eval::EvalKind::Network));
        assert!(s.network.is_none());
        let e = parse_spec_t(&format!("eval=trained,network={}", good.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("network= goes with eval=network only"), "{e}");
        let e = parse_spec_t("network=", None).unwrap_err().0;
        assert!(e.contains("network= needs a file name"), "{e}");
        let mut damaged = bytes.to_vec();
        damaged[100] ^= 1;
        let bad = dir.path().join("bad.nnue");
        std::fs::write(&bad, damaged).unwrap();
        let e = parse_spec_t(&format!("network={}", bad.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("checksum mismatch"), "{e}");
    }

    /// `weights=FILE` reads a weights file; a file that is not one is refused with its reason.
    #[test]
    fn weights_key_reads_a_weights_file() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("pool.bin");
        let zero = crown_ai::trained::Weights::zero(Variant::Pool);
        std::fs::write(&good, zero.to_bytes()).unwrap();
        let s = parse_spec_t(&format!("nodes=100,weights={}", good.display()), None).unwrap();
        assert_eq!(s.weights.as_deref(), Some(&zero));
        assert!(parse_spec_t("nodes=100", None).unwrap().weights.is_none());
        let bad = dir.path().join("bad.bin");
        std::fs::write(&bad, b"not weights").unwrap();
        let e = parse_spec_t(&format!("weights={}", bad.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("truncated") || e.contains("bad magic"), "{e}");
        let e = parse_spec_t("depth=2,weights=", None).unwrap_err().0;
        assert!(e.contains("weights= needs a file name"), "{e}");
        let e = parse_spec_t("weights=/nonexistent/w.bin", None)
            .unwrap_err()
            .0;
        assert!(e.contains("reading weights /nonexistent/w.bin"), "{e}");
    }

    #[test]
    fn search_switch_keys() {
        let s = parse_spec_t("malus=0,rfp=1", None).unwrap();
        assert_eq!(
            s.tweaks,
            SearchTweaks {
                history_malus: Some(false),
                reverse_futility: Some(true),
                ..SearchTweaks::default()
            }
        );
        assert_eq!(
            parse_spec_t("depth=4", None).unwrap().tweaks,
            SearchTweaks::default()
        );
        let e = parse_spec_t("futility=2", None).unwrap_err().0;
        assert!(e.contains("futility 2 is not 0 to 1"), "{e}");
    }

    /// Degenerate specs are refused with the key named: a key given twice, a zero node, time or
    /// clock budget, an increment without a clock, and `eval=classic` with `weights=` (the weights replace the evaluation).
    #[test]
    fn degenerate_specs_are_refused() {
        let e = parse_spec_t("level=3,level=4", None).unwrap_err().0;
        assert_eq!(e, "engine spec 'level=3,level=4': level is given twice");
        let e = parse_spec_t("depth=4, depth=4", None).unwrap_err().0;
        assert!(e.ends_with("depth is given twice"), "{e}");
        for (spec, key) in [
            ("nodes=0", "nodes 0"),
            ("movetime=0", "movetime 0"),
            ("time=0,inc=100", "time 0"),
        ] {
            let e = parse_spec_t(spec, None).unwrap_err().0;
            assert!(e.contains(&format!("{key} is not 1 to ")), "{e}");
        }
        assert_eq!(parse_spec_t("nodes=1", None).unwrap().limits.nodes, Some(1));
        // An increment without a clock: a clock of 0 ms would lose at once.
        let e = parse_spec_t("inc=5", None).unwrap_err().0;
        assert_eq!(
            e,
            "engine spec 'inc=5': inc= needs time= (the clock's time at the start, in ms)"
        );
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().join("american.bin");
        std::fs::write(
            &w,
            crown_ai::trained::Weights::zero(Variant::American).to_bytes(),
        )
        .unwrap();
        let e = parse_spec_t(&format!("eval=classic,weights={}", w.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("eval=classic and weights= contradict"), "{e}");
        // The trained evaluation with other trained weights is no contradiction.
        assert!(parse_spec_t(&format!("eval=trained,weights={}", w.display()), None).is_ok());
    }

    /// The spec keys the `crown engine` protocol cannot send are refused for `--engine-b-bin`;
    /// those it can send are accepted.
    #[test]
    fn external_engine_specs_keep_to_the_protocol() {
        for key in [
            "eval=classic",
            "malus=0",
            "rfp=1",
            "futility=0",
            "trunc=100",
            "asp=15",
        ] {
            let spec = parse_spec_t(&format!("depth=4,{key}"), None).unwrap();
            let e = check_external_spec(&spec).unwrap_err().0;
            let name = key.split('=').next().unwrap();
            assert_eq!(
                e,
                format!("engine B spec 'depth=4,{key}': {name}= is for the built-in engine, not --engine-b-bin (the crown engine protocol cannot set it)")
            );
        }
        let ok =
            "level=3,depth=4,movetime=50,nodes=900,hash=2,threads=1,time=900,inc=9,egdb=0,book=1";
        assert!(check_external_spec(&parse_spec_t(ok, None).unwrap()).is_ok());
    }
}
