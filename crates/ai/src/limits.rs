//! What bounds a search: depth, nodes, time, a clock ([`Limits`], [`Clock`]), and the search caps of
//! the casual levels ([`Limits::level`]).

/// A chess-style clock for the side to move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock of the side to move, in ms.
    pub remaining_ms: u64,
    /// Time added after each move, in ms.
    pub increment_ms: u64,
}

/// What bounds a search. Every limit that is set applies; the search stops at the first one reached.
/// With nothing set (and `infinite` false) the search runs to [`MAX_PLY`](crate::MAX_PLY) or until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (positions visited), summed over threads.
    pub nodes: Option<u64>,
    /// Time for this move in ms.
    pub movetime_ms: Option<u64>,
    /// The clock of the side to move: the engine allots itself a share of it.
    pub clock: Option<Clock>,
    /// Search until the stop flag is set (other limits are ignored).
    pub infinite: bool,
}

impl Limits {
    /// Search to a fixed depth in plies.
    pub fn depth(plies: u32) -> Limits {
        Limits {
            depth: Some(plies),
            ..Limits::default()
        }
    }

    /// Search for a fixed time in ms.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// The search caps of a casual level 1–10 (values outside are clamped): depth caps of 1, 2, 3,
    /// 4, 6, 8, 10, 14 plies for levels 1–8 and time caps of 100, 200, 300, 400, 500, 700, 1000,
    /// 1500, 2000 and 3000 ms. For the randomness of the low levels, also set
    /// [`EngineOptions::level`](crate::EngineOptions::level) (or [`Engine::set_level`](crate::Engine::set_level)).
    pub fn level(level: u8) -> Limits {
        let l = level.clamp(1, 10) as usize;
        const DEPTH: [Option<u32>; 10] = [
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(6),
            Some(8),
            Some(10),
            Some(14),
            None,
            None,
        ];
        const TIME: [u64; 10] = [100, 200, 300, 400, 500, 700, 1000, 1500, 2000, 3000];
        Limits {
            depth: DEPTH[l - 1],
            movetime_ms: Some(TIME[l - 1]),
            ..Limits::default()
        }
    }
}
