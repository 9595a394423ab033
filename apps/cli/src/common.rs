//! Arguments shared by several commands: variant, Impasse setup and starting FEN.

use crate::CliError;
use clap::Args;
use crown_core::{ImpasseSetup, Position, Variant};

/// `--variant`, `--setup`, `--fen`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    pub variant: String,
    /// Impasse start setup: seed (default) or steere.
    #[arg(long)]
    pub setup: Option<String>,
    /// Start from this PDN FEN instead of the start position, e.g. "B:W18,24:B12,K22".
    #[arg(long)]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The chosen variant.
    pub fn variant(&self) -> Result<Variant, CliError> {
        Ok(self.variant.parse::<Variant>()?)
    }

    /// The position: `--fen` if given, else the start of the variant (and setup).
    pub fn position(&self) -> Result<Position, CliError> {
        let variant = self.variant()?;
        let setup = match &self.setup {
            Some(s) => {
                let setup: ImpasseSetup = s.parse()?;
                if variant != Variant::Impasse {
                    return Err(CliError(format!(
                        "--setup {s} applies only to --variant impasse"
                    )));
                }
                Some(setup)
            }
            None => None,
        };
        match (&self.fen, setup) {
            (Some(_), Some(_)) => Err(CliError("give either --fen or --setup, not both".into())),
            (Some(fen), None) => Ok(Position::from_fen(variant, fen)?),
            (None, Some(s)) => Ok(Position::impasse(s)),
            (None, None) => Ok(Position::new(variant)),
        }
    }
}
