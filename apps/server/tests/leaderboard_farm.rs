//! The leaderboard against rating farms (issue 41; docs/api.md, the leaderboard), on SQLite: the
//! attack review's farm — a target and five accounts, each playing 8 rated 3+2 games against
//! the target, alternately resigning and agreeing draws. From the target's own address its
//! games are not even rated (one sign-up network); from one other /24, or from five /64s of one
//! IPv6 /56 (one home line), they give the target a rating of deviation under 110 from 40 games,
//! yet do not list it, because its opponents come from one sign-up network; the same games
//! against opponents of five networks list it; and games shorter than `--rated-min-plies` change
//! no rating, while games shorter than `--leaderboard-min-plies` do not count toward the games a
//! listed rating needs. The sign-up limit is lifted so that the accounts are made at once: the
//! point is the leaderboard's rule.

mod common;
use common::ratings::{blitz_rating, farm, leaderboard_names, played_game, sign_up_from};
use common::server;
use crown_server::App;

/// A server with the default leaderboard rule and no sign-up or log-in limit.
async fn app() -> App {
    server()
        .with(|c| {
            c.signup_per_hour_per_ip = 0;
            c.login_per_min_per_ip = 0;
        })
        .start()
        .await
}

/// The target's american blitz rating meets the rule's other parts: 40 rated games, a deviation
/// of at most 110 (the default `--leaderboard-max-deviation`), above 1500.
async fn assert_farmed(app: &App, target: &str) {
    let (rating, deviation, games) = blitz_rating(app, target).await.unwrap();
    assert_eq!(games, 40);
    assert!(deviation <= 110, "deviation {deviation}");
    assert!(rating > 1500, "rating {rating}");
}

const ONE: [u8; 4] = [203, 0, 113, 7];

#[tokio::test]
async fn a_farm_from_one_address_rates_nothing_and_lists_nobody() {
    let app = app().await;
    let target = farm(&app, "one", ONE, [ONE; 5], 10).await;
    // Every game was between two accounts of one sign-up network: played unrated.
    assert_eq!(blitz_rating(&app, &target).await, None);
    assert_eq!(leaderboard_names(&app).await, Vec::<String>::new());
}

#[tokio::test]
async fn a_farm_from_a_second_slash_24_does_not_list_its_target() {
    // Five farmers from five addresses of one /24, the target from another address.
    let app = app().await;
    let farmers = [1, 2, 3, 4, 5].map(|d| [198, 51, 100, d]);
    let target = farm(&app, "two", ONE, farmers, 10).await;
    assert_farmed(&app, &target).await;
    assert_eq!(leaderboard_names(&app).await, Vec::<String>::new());
}

#[tokio::test]
async fn the_same_games_against_five_networks_list_the_target() {
    let app = app().await;
    let farmers = [1, 2, 3, 4, 5].map(|c| [198, 51, c, 9]);
    let target = farm(&app, "five", ONE, farmers, 10).await;
    assert_farmed(&app, &target).await;
    assert_eq!(leaderboard_names(&app).await, [target]);
}

#[tokio::test]
async fn a_farm_from_five_slash_64s_of_one_ipv6_line_does_not_list_its_target() {
    // One home line is a /56 (or a /48): its /64s are one sign-up network (a /48 by default).
    let app = app().await;
    let farmers = [0xa100u16, 0xa101, 0xa102, 0xa1fe, 0xa1ff]
        .map(|s| std::net::IpAddr::from([0x2001, 0xdb8, 7, s, 0, 0, 0, 9]));
    let target = farm(&app, "v6", ONE, farmers, 10).await;
    assert_farmed(&app, &target).await;
    assert_eq!(leaderboard_names(&app).await, Vec::<String>::new());
}

#[tokio::test]
async fn the_same_games_against_five_ipv6_slash_48s_list_the_target() {
    let app = app().await;
    let farmers =
        [1u16, 2, 3, 4, 5].map(|n| std::net::IpAddr::from([0x2001, 0xdb8, n, 1, 0, 0, 0, 9]));
    let target = farm(&app, "v6five", ONE, farmers, 10).await;
    assert_farmed(&app, &target).await;
    assert_eq!(leaderboard_names(&app).await, [target]);
}

#[tokio::test]
async fn games_shorter_than_ten_plies_change_no_rating() {
    let app = app().await;
    let farmers = [1, 2, 3, 4, 5].map(|c| [198, 51, c, 9]);
    // Two plies: each side moved, but fewer than --rated-min-plies (10): unrated.
    let target = farm(&app, "short", ONE, farmers, 2).await;
    assert_eq!(blitz_rating(&app, &target).await, None);
    assert_eq!(leaderboard_names(&app).await, Vec::<String>::new());
}

#[tokio::test]
async fn games_shorter_than_ten_plies_do_not_count_toward_the_leaderboard() {
    // A server that rates games from two plies on still lists no rating resting on them.
    let app = server()
        .with(|c| {
            c.signup_per_hour_per_ip = 0;
            c.login_per_min_per_ip = 0;
            c.rated_min_plies = 2;
        })
        .start()
        .await;
    let farmers = [1, 2, 3, 4, 5].map(|c| [198, 51, c, 9]);
    // Two plies: rated (each side moved), so the rating changes, but not counted.
    let target = farm(&app, "short", ONE, farmers, 2).await;
    assert_farmed(&app, &target).await;
    assert_eq!(leaderboard_names(&app).await, Vec::<String>::new());
}

#[tokio::test]
async fn loopback_sign_ups_record_no_network_and_count_as_their_own() {
    // As the browser tests run: both accounts from 127.0.0.1, one game, one opponent needed.
    let lenient = |c: &mut crown_server::Config| {
        c.leaderboard_min_games = 1;
        c.leaderboard_min_opponents = 1;
        c.leaderboard_min_plies = 0;
        c.leaderboard_max_deviation = 350.0;
    };
    for (ip, listed) in [([127, 0, 0, 1], true), (ONE, false)] {
        let app = server().with(lenient).start().await;
        let ann = sign_up_from(&app, "ann", ip).await;
        let bob = sign_up_from(&app, "bob", ip).await;
        let g = played_game(&app, &ann, &bob, 11).await;
        let (s, v) = common::ratings::act(&app, &g.id, "resign", &g.white).await;
        assert_eq!(s, axum::http::StatusCode::OK, "{v}");
        // Loopback: both have a rated game against an account counted as another network. From
        // one outside address the game was between one network's accounts: unrated.
        let want: Vec<&str> = if listed { vec!["ann", "bob"] } else { vec![] };
        assert_eq!(leaderboard_names(&app).await, want, "{ip:?}");
    }
}
