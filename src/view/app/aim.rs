//! Aiming (rules 4): `f` fires the first missile the player can fire, `z`
//! zaps the wand chosen. The aim starts on the nearest monster in view,
//! the next-target key goes to the next one (nearest first, round again),
//! the move keys move it anywhere (a digging bolt aims at rock), and
//! Enter, or the same key again, lets fly.

use super::{App, Mode};
use crate::generate::GenerateError;
use crate::geom::Pos;
use crate::sim::{Action, Event, ItemClass, Run};
use crate::view::keymap::{Command, Key};

/// What an aim is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// A missile from this pack letter.
    Fire {
        /// The missile's pack letter.
        slot: u8,
    },
    /// The wand at this pack letter.
    Zap {
        /// The wand's pack letter.
        slot: u8,
    },
}

impl Aim {
    fn action(self, at: Pos) -> Action {
        match self {
            Aim::Fire { slot } => Action::Fire {
                slot,
                x: at.x,
                y: at.y,
            },
            Aim::Zap { slot } => Action::Zap {
                slot,
                x: at.x,
                y: at.y,
            },
        }
    }

    /// The key that lets fly besides Enter.
    fn command(self) -> Command {
        match self {
            Aim::Fire { .. } => Command::Fire,
            Aim::Zap { .. } => Command::Zap,
        }
    }
}

/// The monsters the player sees, nearest first (then by row and column),
/// as the aim cycles through them.
pub fn targets(run: &Run) -> Vec<Pos> {
    let here = run.player().pos;
    let mut seen: Vec<Pos> = run
        .current()
        .monsters
        .iter()
        .map(|m| m.pos)
        .filter(|&p| run.sees(p))
        .collect();
    seen.sort_by_key(|p| (p.x.abs_diff(here.x).max(p.y.abs_diff(here.y)), p.y, p.x));
    seen
}

/// The pack letter `f` fires from (see [`Run::quiver`]).
pub fn quiver(run: &Run) -> Option<u8> {
    run.quiver()
}

impl App {
    /// `f`: aims the quiver's missile, or says why nothing can be fired.
    pub(super) fn fire_command(&mut self) {
        if self.run.tactics().is_none() {
            self.note("There is nothing to fire under these rules.".into());
            return;
        }
        match quiver(&self.run) {
            Some(slot) => self.aim(Aim::Fire { slot }),
            None => {
                let why = self.why_nothing_fires();
                self.note(why)
            }
        }
    }

    /// Why `f` has nothing to fire: no missiles at all, or ammunition
    /// whose launcher is not readied.
    fn why_nothing_fires(&self) -> String {
        let Some(combat) = self.run.combat() else {
            return "You have nothing to fire.".into();
        };
        let ammo = combat.hero.pack.lines().find_map(|(_, l)| {
            let kind = combat.kind(l.kind);
            match kind.class {
                ItemClass::Missile {
                    ammo: Some(ammo), ..
                } => Some((kind.name.clone(), ammo)),
                _ => None,
            }
        });
        match ammo {
            Some((name, ammo)) => format!(
                "You have nothing to fire: {} need a readied {} (w).",
                crate::words::plural_name(&name),
                ammo.launcher()
            ),
            None => "You have nothing to fire.".into(),
        }
    }

    /// Starts aiming: at the nearest monster in view, else next to the
    /// player.
    pub(super) fn aim(&mut self, aim: Aim) {
        let here = self.run.player().pos;
        let cursor = targets(&self.run).first().copied().unwrap_or(here);
        self.look_return = self.camera;
        self.mode = Mode::Aim { aim, cursor };
        self.follow();
    }

    /// A key while aiming.
    pub(super) fn press_aim(
        &mut self,
        aim: Aim,
        cursor: Pos,
        key: Key,
        command: Option<Command>,
    ) -> Result<(), GenerateError> {
        let go = key == Key::Enter || command == Some(aim.command());
        match command {
            _ if go => {
                self.end_aim();
                if cursor == self.run.player().pos {
                    self.note("Aim somewhere other than yourself.".into());
                    return Ok(());
                }
                // Past a missile's range the shot drops short of the aim:
                // say so, as the run's own message only names the throw.
                let short = match aim {
                    Aim::Fire { slot } => self.run.missile_range(slot).filter(|&range| {
                        let here = self.run.player().pos;
                        here.chebyshev(cursor) > range
                    }),
                    Aim::Zap { .. } => None,
                };
                let events = self.act(aim.action(cursor))?;
                // A monster met on the way took the shot: it fell short of
                // nothing.
                let met = events.iter().any(|e| {
                    matches!(
                        e,
                        Event::Attacked {
                            by_player: true,
                            ..
                        } | Event::Killed { .. }
                    )
                });
                if events == [Event::Blocked] {
                    self.note("That cannot be fired or zapped from here.".into());
                } else if let Some(range) = short.filter(|_| !met) {
                    self.note(format!("It falls short: it flies at most {range} cells."));
                }
            }
            Some(Command::NextTarget) => {
                let all = targets(&self.run);
                let next = match all.iter().position(|&p| p == cursor) {
                    Some(i) => all.get(i + 1).or(all.first()),
                    None => all.first(),
                };
                if let Some(&p) = next {
                    self.mode = Mode::Aim { aim, cursor: p };
                    self.follow();
                }
            }
            Some(Command::Move { dx, dy }) => {
                let level = &self.run.current().level;
                let x =
                    (i32::from(cursor.x) + i32::from(dx)).clamp(0, i32::from(level.width()) - 1);
                let y =
                    (i32::from(cursor.y) + i32::from(dy)).clamp(0, i32::from(level.height()) - 1);
                self.mode = Mode::Aim {
                    aim,
                    cursor: Pos::new(x as u16, y as u16),
                };
                self.follow();
            }
            Some(Command::Cancel) => self.end_aim(),
            _ => {}
        }
        Ok(())
    }

    fn end_aim(&mut self) {
        self.mode = Mode::Map;
        self.camera = self.look_return.take();
        self.follow();
    }
}
