//! Arguments that several commands share, flattened into each command's
//! own arguments with `#[command(flatten)]`.
//!
//! These structs carry `//` comments, not doc comments: clap's derive turns
//! a flattened struct's doc comment into the `about` of the command it is
//! flattened into, which would change that command's `--help`.

use std::path::PathBuf;

use delve::config::Config;
use delve::sim::{ItemKind, MonsterKind};
use delve::vault::Vault;

use super::{CliError, load_config, load_kinds, load_vaults, seed_or_random};

// `--seed`. Its help says where a random seed is shown, which differs per
// command, so the default text below (the one most commands use) is
// replaced where it differs by `#[command(mut_arg("seed", |a| a.help(..)))]`
// on that command's struct: one declaration of the argument, and each
// `--help` stays as it was. (An `#[arg(help = ..)]` inside this struct
// cannot vary per command; a macro generating a struct per command would
// bring back one declaration per command.)
#[derive(clap::Args)]
pub struct SeedArg {
    /// Run seed; without it a random seed is chosen and printed to stderr.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed asked for, or a random one printed to stderr.
    pub fn or_random(&self) -> u64 {
        seed_or_random(self.seed)
    }
}

// `--config FILE`.
#[derive(clap::Args)]
pub struct ConfigArg {
    /// RON config file; fields left out take the defaults of data/default.ron,
    /// but a file without `profiles` has none (without the option: that file).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

// `--vaults FILE`, on every command that generates levels.
#[derive(clap::Args)]
pub struct VaultsArg {
    /// RON list of vaults, set pieces drawn by hand (default: the vaults of
    /// data/vaults.ron).
    #[arg(long, value_name = "FILE")]
    pub vaults: Option<PathBuf>,
}

impl VaultsArg {
    /// The vaults of `--vaults FILE`, their monster letters checked against
    /// `kinds` and their size against the config's levels, or the shipped
    /// ones.
    pub fn load(&self, kinds: &[MonsterKind], config: &Config) -> Result<Vec<Vault>, CliError> {
        load_vaults(self.vaults.as_deref(), kinds, config)
    }

    /// The vaults for a command with no monsters of its own: letters are
    /// checked against the config's built-in kinds.
    pub fn load_for(&self, config: &Config) -> Result<Vec<Vault>, CliError> {
        match &self.vaults {
            Some(_) => self.load(&load_kinds(None, config)?, config),
            None => Ok(delve::vault::shipped().to_vec()),
        }
    }
}

// `--seed`, `--config`, `--vaults` and `--levels`: the stack of levels a
// command generates (generate, stats).
#[derive(clap::Args)]
pub struct StackArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub config: ConfigArg,
    #[command(flatten)]
    pub vaults: VaultsArg,
    /// Number of levels, overriding the config.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=i64::from(delve::config::MAX_LEVELS)))]
    pub levels: Option<u16>,
}

impl StackArgs {
    /// The config file (or the defaults) with `--levels` applied.
    pub fn load_config(&self) -> Result<Config, CliError> {
        load_config(self.config.config.as_deref(), self.levels)
    }
}

// `--seed`, `--config` and `--monsters`: what a new run is made of (play,
// simulate). `--load` conflicts with all three by their ids.
#[derive(clap::Args)]
pub struct NewRunArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub config: ConfigArg,
    /// RON list of monster kinds (default: the kinds of data/monsters.ron;
    /// 001's six under the Stomp rules).
    #[arg(long, value_name = "FILE")]
    pub monsters: Option<PathBuf>,
    /// RON list of item kinds for the Combat rules (default: data/items.ron).
    #[arg(long, value_name = "FILE")]
    pub items: Option<PathBuf>,
    #[command(flatten)]
    pub vaults: VaultsArg,
}

impl NewRunArgs {
    /// The config, then the monster kinds, loaded in that order (so a bad
    /// config is the error reported when both are bad).
    pub fn load(&self) -> Result<(Config, Vec<MonsterKind>), CliError> {
        let config = load_config(self.config.config.as_deref(), None)?;
        let kinds = load_kinds(self.monsters.as_deref(), &config)?;
        Ok((config, kinds))
    }

    /// The item kinds of `--items FILE`, or the built-in ones.
    pub fn load_items(&self) -> Result<Vec<ItemKind>, CliError> {
        Ok(match &self.items {
            Some(path) => delve::data_file::load_items(path)?,
            None => ItemKind::defaults(),
        })
    }
}
