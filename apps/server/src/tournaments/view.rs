//! The JSON of tournaments (docs/api.md, "Tournaments"): a summary per tournament for the lists,
//! and the whole tournament — players, standings with tie-breaks, rounds with their pairings and
//! games, and the crosstable.

use super::play::game_id;
use super::Stored;
use crown_tournament::{Format, Pairing, PlayerId};
use serde_json::{json, Value};

/// The format's API name.
fn format_name(s: &Stored) -> &'static str {
    match s.tournament.settings().format {
        Format::Swiss { .. } => "swiss",
        Format::RoundRobin => "round_robin",
    }
}

/// The summary of tournament `id` in the lists of `GET /api/tournaments`.
pub fn summary(id: &str, s: &Stored) -> Value {
    let t = &s.tournament;
    json!({
        "id": id,
        "name": t.settings().name,
        "variant": t.settings().variant.id(),
        "format": format_name(s),
        "rounds": t.total_rounds(),
        "time_control": s.time_control,
        "rated": s.rated,
        "openings": s.openings,
        "starts_ms": (s.starts_ms != 0).then_some(s.starts_ms),
        "phase": s.phase(),
        "cancelled": t.cancelled(),
        "players": t.players().iter().filter(|p| !p.withdrawn).count(),
        "password": s.password.is_some(),
        "creator": s.creator.name,
    })
}

/// The name of player `p`.
fn name(s: &Stored, p: PlayerId) -> String {
    s.tournament
        .player(p)
        .map_or_else(|_| "?".to_string(), |p| p.name.clone())
}

/// The whole of tournament `id` (`GET /api/tournaments/{id}`).
pub fn full(id: &str, s: &Stored) -> Value {
    let t = &s.tournament;
    let mut v = summary(id, s);
    let players: Vec<Value> = t
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
    v["players_list"] = Value::Array(players);
    v["standings"] = Value::Array(standings);
    v["pairings"] = Value::Array(rounds);
    v["crosstable"] = Value::Array(crosstable);
    v
}
