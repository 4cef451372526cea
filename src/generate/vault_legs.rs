//! Generator revision 3: a last leg from each vault to the level, for the
//! corridor styles that cannot aim at a vault's doors.
//!
//! `Grid` corridors wander along grid lines and `Straight` ones walk
//! toward the room before, so neither can be made to arrive at one of a
//! vault's few doors (with a one-door vault most such levels could not be
//! joined at all). Until revision 3 their levels placed no vaults. Now the
//! style joins the ordinary rooms as it always did, leaving the vaults
//! (rooms 0 to k-1) alone, and this stage joins each vault to that network
//! through one of its doors: the door whose corridor to the nearest open
//! cell is cheapest, priced and ruled as `vault_doors.rs` prices and rules
//! the corridors it gives the doors no corridor reached (that stage, which
//! follows, then joins the vault's other doors). A vault no leg can join
//! rejects the attempt, as a room the style could not join does, so a
//! level is never made in two pieces.
//!
//! A leg ends only on the network: on a corridor, at a door, or as a new
//! door of an ordinary room or of a vault already joined, never at a vault
//! still apart (it would join two vaults to each other and to nothing
//! else). Every corridor standing when the stage begins is the style's, all
//! of it joined to the ordinary rooms, so a vault is joined exactly when a
//! door of it leads out onto an open cell. A vault is taken in order; a leg
//! may pass a later vault's door, which joins that vault too.
//!
//! Draws no random numbers.

use super::corridors::site::porch;
use super::corridors::{Rules, Site};
use super::vault_doors;
use crate::config::{Config, CorridorStyle, Range, VaultConfig};

/// Some vault could not be joined to the rest of the level.
#[derive(Debug)]
pub(super) struct VaultApart;

/// Whether a level of `config` leaves its vaults to this stage: a `Grid`
/// or `Straight` level from generator revision 3. (The other styles join
/// vaults as they join rooms.)
pub(super) fn needed(config: &Config) -> bool {
    config.revisions.generator >= 3
        && matches!(
            config.corridors,
            CorridorStyle::Grid | CorridorStyle::Straight
        )
}

/// How many vaults a level of `config` tries to place: the config's count
/// where its style or this stage can join them, else none (a `Grid` or
/// `Straight` level before revision 3).
pub(super) fn wanted(config: &Config) -> Range {
    match config.corridors {
        CorridorStyle::Tunnel | CorridorStyle::DeadEnd => config.vaults.count,
        _ if needed(config) => config.vaults.count,
        _ => VaultConfig::NONE.count,
    }
}

/// Joins every vault of the site that no corridor reaches to the network
/// of the ordinary rooms by a leg of its own, with the searches (and
/// buffers) of `vault_doors`. Spends from the site's budget; the caller
/// asks it whether the stage finished.
pub(super) fn join(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    doors: &mut vault_doors::Scratch,
) -> Result<(), VaultApart> {
    if site.entrances.is_empty() {
        return Ok(());
    }
    doors.price(cfg);
    // Per vault: not joined yet, so no leg may end at it.
    let mut apart = std::mem::take(&mut doors.apart);
    let joined = join_with(rules, cfg, site, doors, &mut apart);
    doors.apart = apart;
    joined
}

fn join_with(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    doors: &mut vault_doors::Scratch,
    apart: &mut Vec<bool>,
) -> Result<(), VaultApart> {
    let entrances = site.entrances;
    let vaults = entrances.len();
    apart.clear();
    apart.extend(entrances.iter().map(|list| !leads_out(site, list)));
    // A level of vaults alone has no network but theirs: the first vault
    // is where it begins.
    if site.shapes.len() == vaults {
        apart[0] = false;
    }
    for vault in 0..vaults {
        if !apart[vault] {
            continue;
        }
        let list = &entrances[vault];
        // The cheapest leg of all the doors; if the rules refuse it (its
        // own cells would make a slab), each door's own, in order.
        let joined = doors.route(rules, cfg, site, vault, list, apart).is_some()
            || list.iter().any(|door| {
                let one = std::slice::from_ref(door);
                doors.route(rules, cfg, site, vault, one, apart).is_some()
            });
        if !joined || site.budget.overspent() {
            return Err(VaultApart);
        }
        // This leg may have passed the door of a later vault.
        for (later, list) in entrances.iter().enumerate().skip(vault) {
            if apart[later] && leads_out(site, list) {
                apart[later] = false;
            }
        }
        debug_assert!(!apart[vault]);
    }
    Ok(())
}

/// Whether a door of the vault whose edge doors are `list` leads out onto
/// an open cell (its porch).
fn leads_out(site: &Site<'_>, list: &[u32]) -> bool {
    list.iter()
        .any(|&door| porch(site, door as usize).is_some_and(|p| site.tiles[p].is_walkable()))
}

#[cfg(test)]
mod tests {
    use super::super::budget::Budget;
    use super::super::{Generator, Rejected};
    use super::*;

    /// A leg never ends at a vault not yet joined, which would join the
    /// two to each other and to nothing else: no attempt of a level
    /// crowded with vaults is thrown away for failing verification (when a
    /// leg could end at any vault, Grid seed 1011's was, in two pieces).
    #[test]
    fn legs_never_leave_a_level_in_pieces() {
        for corridors in [CorridorStyle::Grid, CorridorStyle::Straight] {
            let mut config = Config {
                corridors,
                ..Config::default()
            };
            config.vaults.count = Range::new(6, 6);
            let mut generator = Generator::default();
            let (mut made, mut vaults) = (0, 0);
            for seed in 1000..1200 {
                let budget = Budget::for_level(config.width, config.height);
                let stairs = config.stair_counts(1);
                let shipped = crate::vault::shipped();
                match generator.attempt(&config, shipped, stairs, seed, 1, 0, &budget) {
                    Ok(level) => {
                        made += 1;
                        vaults += level
                            .rooms()
                            .iter()
                            .filter(|r| matches!(r.shape, crate::geom::Shape::Vault(_)))
                            .count();
                    }
                    Err(Rejected::Flaw(flaw)) => panic!("{corridors:?} seed {seed}: {flaw}"),
                    Err(_) => {}
                }
            }
            assert!(
                made >= 190 && vaults >= 4 * made,
                "{made} levels, {vaults} vaults"
            );
        }
    }
}
