"""Crown for Python: American checkers, pool checkers and Impasse.

Positions and legal moves, FEN and Hub position strings, PDN read (streaming) and write, perft,
the engine and the endgame databases. Bad input raises ValueError with a one-line reason.
"""

from os import PathLike
from typing import Callable, Iterator, List, Optional, Sequence, Tuple, Union

__version__: str
VARIANTS: List[str]

class Move:
    """A move of one position (only meaningful there)."""

    @property
    def text(self) -> str:
        """Crown's notation: `11-15`, `11x18`, `11x18x25`, Impasse `6>10`, `x14`, `22-18=3`."""
    @property
    def hub(self) -> str:
        """The Hub protocol's text: `11-15`, or `from x to x captured…` for a capture."""
    @property
    def from_square(self) -> int:
        """The square the piece starts on (1–32)."""
    @property
    def to_square(self) -> int:
        """The square the piece ends on (1–32)."""
    @property
    def captures(self) -> List[int]:
        """The squares of the captured pieces, ascending."""
    @property
    def path(self) -> List[int]:
        """The landing squares of a jump in order (empty for other moves)."""
    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""

class Position:
    """A position of one of the three games; immutable (`play` returns a new one)."""

    def __init__(
        self, variant: str = "american", fen: Optional[str] = None, setup: Optional[str] = None
    ) -> None:
        """The start of `variant` (`american`, `english`, `pool`, `impasse`; Impasse
        `setup="seed"|"steere"`), or the position of `fen` (PDN FEN or a Hub position string)."""
    @property
    def variant(self) -> str:
        """`american`, `pool` or `impasse`."""
    @property
    def side_to_move(self) -> str:
        """`black` or `white`."""
    def fen(self) -> str:
        """The PDN FEN."""
    def hub(self) -> str:
        """The Hub protocol's 33-character position string (docs/protocol.md)."""
    def legal_moves(self) -> List[Move]:
        """The legal moves, by notation."""
    def parse_move(self, text: str) -> Move:
        """The legal move named by `text` (Crown notation, algebraic squares or Hub text)."""
    def play(self, move: Union[Move, str]) -> "Position":
        """The position after `move`."""
    def winner(self) -> Optional[str]:
        """`black`/`white` when the side to move has lost, else None."""
    def perft(self, depth: int, paths: bool = False) -> int:
        """Move sequences of `depth` plies (a capture once per captured set; `paths`: per path)."""

class Game:
    """A start position and the moves played, with its variant's draw rules."""

    def __init__(
        self, variant: str = "american", fen: Optional[str] = None, setup: Optional[str] = None
    ) -> None: ...
    @property
    def position(self) -> Position:
        """The position now."""
    @property
    def start(self) -> Position:
        """The start position."""
    @property
    def moves(self) -> List[str]:
        """The moves played, in Crown's notation."""
    def play(self, move: Union[Move, str]) -> Move:
        """Play `move`; ValueError for an illegal move or a finished game."""
    def undo(self) -> Optional[str]:
        """Take the last move back; its text, or None at the start."""
    def legal_moves(self) -> List[Move]:
        """The legal moves now (none once the game is over)."""
    def outcome(self) -> Optional[str]:
        """How the game ended, or None while it goes on."""
    def pdn(self, tags: Optional[Sequence[Tuple[str, str]]] = None) -> str:
        """The game as PDN 3.0 text."""

class PdnGame:
    """One game of a PDN file as read (not yet replayed)."""

    @property
    def index(self) -> int: ...
    @property
    def tags(self) -> List[Tuple[str, str]]: ...
    def tag(self, name: str) -> Optional[str]: ...
    @property
    def moves(self) -> List[str]:
        """The main-line move texts as written."""
    @property
    def result(self) -> Optional[str]: ...
    def replay(self) -> Game:
        """The moves replayed against the rules; ValueError naming the first illegal one."""
    def pdn(self) -> str:
        """Canonical PDN 3.0."""

class PdnFile(Iterator[PdnGame]):
    """The games of a PDN file, read one at a time."""

    def __iter__(self) -> "PdnFile": ...
    def __next__(self) -> PdnGame: ...

def read_pdn(path: Union[str, PathLike]) -> PdnFile:
    """Stream the games of a PDN file (OSError when it cannot be opened)."""

def parse_pdn(text: str) -> List[PdnGame]:
    """Every game of PDN text."""

def perft(variant: str, depth: int, fen: Optional[str] = None, paths: bool = False) -> int:
    """Perft of the start of `variant` (or `fen`)."""

class Score:
    """A search score from the side to move's point of view."""

    @property
    def kind(self) -> str:
        """`value`, `win`, `loss`, `db-win` or `db-loss`."""
    @property
    def men(self) -> Optional[float]:
        """The evaluation in men, or None for a win or loss."""
    @property
    def plies(self) -> Optional[int]:
        """Plies to the proven end for a win or loss."""

class Info:
    """One completed depth of a search."""

    depth: int
    seldepth: int
    score: Score
    nodes: int
    time_ms: int
    pv: List[str]

class SearchResult:
    """The answer of a search."""

    best_move: Optional[Move]
    score: Score
    pv: List[str]
    depth: int
    nodes: int
    time_ms: int
    infos: List[Info]

class Engine:
    """Crown's engine."""

    def __init__(
        self,
        hash_mib: int = 64,
        threads: int = 1,
        level: Optional[int] = None,
        egdb: Optional[str] = None,
        book: bool = False,
    ) -> None:
        """`egdb`: a database directory, `"default"`, or None; `level` 1–10 or None (full strength)."""
    def search(
        self,
        position: Union[Position, Game],
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        time_ms: Optional[int] = None,
        inc_ms: int = 0,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> SearchResult:
        """Search within the limits given (none: one second); `on_info` after every depth."""
    def new_game(self) -> None:
        """Forget the transposition table."""

class Tablebase:
    """The endgame databases of a directory (`crown egdb build`)."""

    def __init__(self, path: Optional[Union[str, PathLike]] = None) -> None: ...
    def describe(self) -> str: ...
    def probe(self, position: Position) -> Optional[Tuple[str, Optional[int]]]:
        """`("win"|"loss"|"draw", plies)` for the side to move, or None outside the built classes."""
    def best_move(self, position: Position) -> Optional[Move]: ...
