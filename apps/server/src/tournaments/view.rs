//! The JSON of tournaments (docs/api.md, "Tournaments"): a summary per tournament for the lists,
//! and the whole tournament — players, standings with tie-breaks, rounds with their pairings and
//! games, and the crosstable.

use super::arena::arena_game_id;
use super::play::game_id;
use super::{ArenaPlay, Event, Stored};
use crown_tournament::{Format, Pairing, PlayerId, Tournament};
use serde_json::{json, Value};

/// The format's API name.
fn format_name(s: &Stored) -> &'static str {
    match &s.event {
        Event::Rounds(t) => match t.settings().format {
            Format::Swiss { .. } => "swiss",
            Format::RoundRobin => "round_robin",
        },
        Event::Arena(_) => "arena",
    }
}

/// The summary of tournament `id` in the lists of `GET /api/tournaments`.
pub fn summary(id: &str, s: &Stored) -> Value {
    let (rounds, cancelled) = match &s.event {
        Event::Rounds(t) => (Some(t.total_rounds()), t.cancelled()),
        Event::Arena(_) => (None, None),
    };
    let mut v = json!({
        "id": id,
        "name": s.name(),
        "variant": s.variant().id(),
        "format": format_name(s),
        "rounds": rounds,
        "time_control": s.time_control,
        "rated": s.rated,
        "openings": s.openings,
        "starts_ms": (s.starts_ms != 0).then_some(s.starts_ms),
        "phase": s.phase(),
        "cancelled": cancelled,
        "players": s.players().iter().filter(|p| !p.withdrawn).count(),
        "password": s.password.is_some(),
        "creator": s.creator.name,
    });
    if let Some(a) = s.arena() {
        v["minutes"] = json!(a.minutes);
        v["ends_ms"] = json!((a.ends_ms != 0).then_some(a.ends_ms));
    }
    v
}

/// The name of player `p`.
fn name(s: &Stored, p: PlayerId) -> String {
    s.players()
        .get(p.0 as usize)
        .map_or_else(|| "?".to_string(), |p| p.name.clone())
}

/// The whole of tournament `id` (`GET /api/tournaments/{id}`).
pub fn full(id: &str, s: &Stored) -> Value {
    let mut v = summary(id, s);
    let players: Vec<Value> = s
        .players()
        .iter()
        .map(|p| {
            json!({
                "id": p.id.0,
                "name": p.name,
                "rating": p.rating,
                "withdrawn": p.withdrawn,
            })
        })
        .collect();
    v["players_list"] = Value::Array(players);
    match &s.event {
        Event::Rounds(t) => rounds_view(id, s, t, &mut v),
        Event::Arena(a) => arena_view(id, s, a, &mut v),
    }
    v
}

/// The standings, pairings and crosstable of Swiss or round robin `t`, into `v`.
fn rounds_view(id: &str, s: &Stored, t: &Tournament, v: &mut Value) {
    let standings: Vec<Value> = t
        .standings()
        .iter()
        .map(|l| {
            json!({
                "rank": l.rank,
                "player": l.player.0,
                "name": name(s, l.player),
                "match_points": l.match_points,
                "game_points": l.game_points,
                "buchholz": l.buchholz,
                "sonneborn_berger": l.sonneborn_berger,
                "direct_encounter": l.direct_encounter,
                "played": l.played,
            })
        })
        .collect();
    let rounds: Vec<Value> = t
        .rounds()
        .iter()
        .map(|r| {
            let pairings: Vec<Value> = r
                .pairings
                .iter()
                .map(|p| match p {
                    Pairing::Bye(b) => json!({"bye": b.0, "name": name(s, *b)}),
                    Pairing::Match(m) => {
                        let games: Vec<Value> = (1u8..=2)
                            .map(|g| {
                                let result = m.games[g as usize - 1];
                                json!({
                                    "game": g,
                                    "id": game_id(id, r.number, m.board, g),
                                    "result": result.and_then(|x| x.pdn_result(g)),
                                    "forfeit": result.is_some_and(|x| !x.is_played()),
                                })
                            })
                            .collect();
                        json!({
                            "board": m.board,
                            "first": m.first.0,
                            "first_name": name(s, m.first),
                            "second": m.second.0,
                            "second_name": name(s, m.second),
                            "games": games,
                        })
                    }
                })
                .collect();
            json!({
                "number": r.number,
                "opening": {"label": r.opening.label, "fen": r.opening.fen},
                "pairings": pairings,
            })
        })
        .collect();
    let cross = t.crosstable();
    let crosstable: Vec<Value> = cross
        .rows
        .iter()
        .map(|row| {
            json!({
                "player": row.standing.player.0,
                "cells": row.cells,
                "byes": row.byes,
            })
        })
        .collect();
    v["standings"] = Value::Array(standings);
    v["pairings"] = Value::Array(rounds);
    v["crosstable"] = Value::Array(crosstable);
}

/// The most games of an arena listed in its view besides those in progress: the latest ones.
pub const ARENA_VIEW_GAMES: usize = 100;

/// The standings and games of arena `a`, into `v`: each line's `points` are the arena points of
/// its games in the order played (lichess's little numbers), `fire` whether the player is on a
/// streak; the games are those in progress and the latest [`ARENA_VIEW_GAMES`] others, in
/// pairing order (`number` from 1; `games_total` counts them all); each game's `result` is
/// `null` while it is played, and stays so when it ended after the arena (it does not count);
/// `short` says it ended before the minimum of plies and counts for nothing.
fn arena_view(id: &str, s: &Stored, a: &ArenaPlay, v: &mut Value) {
    let standings: Vec<Value> = a
        .arena
        .standings()
        .iter()
        .map(|l| {
            json!({
                "rank": l.rank,
                "player": l.player.0,
                "name": name(s, l.player),
                "score": l.score,
                "games": l.games,
                "points": l.points,
                "fire": l.on_fire,
                "performance": l.performance,
                "paused": s.players().get(l.player.0 as usize).is_some_and(|p| p.withdrawn),
            })
        })
        .collect();
    let all = a.arena.games();
    let older = all.len().saturating_sub(ARENA_VIEW_GAMES);
    let games: Vec<Value> = all
        .iter()
        .enumerate()
        .filter(|(k, g)| *k >= older || g.result.is_none())
        .map(|(k, g)| {
            json!({
                "number": k + 1,
                "id": arena_game_id(id, k),
                "first": g.first.0,
                "first_name": name(s, g.first),
                "second": g.second.0,
                "second_name": name(s, g.second),
                "opening": {"label": g.opening.label, "fen": g.opening.fen},
                "result": g.result.and_then(|x| x.pdn_result(1)),
                "forfeit": g.result.is_some_and(|x| !x.is_played()),
                "short": g.short,
            })
        })
        .collect();
    v["standings"] = Value::Array(standings);
    v["games"] = Value::Array(games);
    v["games_total"] = json!(all.len());
}
