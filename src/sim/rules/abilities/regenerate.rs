//! Regeneration (trolls, vampires): a monster that has it regains its
//! `hp` hit points every turn of its own, asleep or awake, up to its
//! maximum, so a troll left to lick its wounds comes back whole.

use crate::sim::state::Run;

impl Run {
    /// Monster `i` regains up to `hp` hit points.
    pub(in crate::sim) fn regenerate(&mut self, i: usize, hp: u16) {
        let id = self.current().monsters[i].id as usize;
        let floor = self.floor_mut();
        let (Some(&now), Some(&max)) = (floor.monster_hp.get(id), floor.monster_max_hp.get(id))
        else {
            return;
        };
        floor.monster_hp[id] = now.saturating_add(hp).min(max);
    }
}
