//! What a run read from outside must satisfy before it is played: one
//! function a promise, in the order their errors are reported, so a save
//! that passes can be played without a panic or a runaway loop. Only the
//! state is read; nothing here knows how a turn is played.

use crate::geom::{Pos, Shape};
use crate::level::{Level, StairDirection, Tile};
use crate::sim::kinds::appearance;
use crate::sim::kinds::item::{ItemClass, ItemKind, stacks};
use crate::sim::kinds::monster::MonsterKind;
use crate::sim::kinds::place::{monsters_most, vault_monsters};
use crate::sim::state::tactics::MAX_EFFECT_TURNS;
use crate::sim::state::{LOG_LINES, Run};
use crate::sim::units::{MAX_TURNS, interval};
use crate::sim::vocabulary::Outcome;
use crate::sim::world::doors::Doors;
use crate::vault::{Orientation, Vault};

impl Run {
    /// Checks a run read from outside (a save file) before it is used, so
    /// that a run that passes can be played without a panic or a runaway
    /// loop: everything the rules index by is in range, every level keeps
    /// the generator's promises for its depth (stair counts, so linked
    /// stairs exist on both sides), and every counter is what play could
    /// have made (tick counters, turns, kills, lives, the log). Returns
    /// what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        self.check_files()?;
        self.check_stack()?;
        self.check_counters()?;
        self.check_levels()?;
        self.check_player()?;
        self.check_searched()?;
        if self.config.simulation.is_combat() != self.state.combat.is_some() {
            return Err("the rules and the run's Combat state disagree".into());
        }
        self.check_combat()?;
        self.check_tactics()
    }

    /// The config, the monster kinds and the vaults pass the checks their
    /// files do.
    fn check_files(&self) -> Result<(), String> {
        self.config
            .validate()
            .map_err(|p| format!("config: {}: {}", p.field, p.message))?;
        MonsterKind::check_list(&self.state.kinds).map_err(|p| match p.index {
            Some(i) => format!("monster kind {i}: {}: {}", p.field, p.message),
            None => format!("monster kinds: {}", p.message),
        })?;
        Vault::check_list(&self.vaults)?;
        Ok(())
    }

    /// One slot a level of the stack, and the player on one of them.
    fn check_stack(&self) -> Result<(), String> {
        if self.state.levels.len() != usize::from(self.config.levels) {
            return Err(format!(
                "{} level slots for {} levels",
                self.state.levels.len(),
                self.config.levels
            ));
        }
        let p = &self.state.player;
        if p.depth == 0 || p.depth > self.config.levels {
            return Err(format!(
                "the player is on depth {}, outside the stack",
                p.depth
            ));
        }
        Ok(())
    }

    /// Every counter is what play could have made: the turn, the player's
    /// ticks, the recording's length, the lives, the log.
    fn check_counters(&self) -> Result<(), String> {
        let p = &self.state.player;
        // Ticks: the player moves every `interval` ticks from tick 0, so its
        // next tick is fixed by the turn; turns stop at MAX_TURNS, so no
        // counter can overflow.
        if self.state.turn > MAX_TURNS {
            return Err(format!(
                "turn {} is past the last turn {}",
                self.state.turn,
                crate::words::number(MAX_TURNS)
            ));
        }
        let player_interval = interval(self.config.simulation.player_speed);
        // Under rules 4 an action takes a quarter to eight of the speed's
        // intervals (armour, weapons, haste, slowness); before, exactly one.
        let time_kept = match self.state.tactics.is_some() {
            true => (self.state.turn..=self.state.turn * player_interval * 8).contains(&p.next),
            false => p.next == self.state.turn * player_interval,
        };
        if !time_kept {
            return Err(format!(
                "the player's next tick {} does not follow from turn {}",
                p.next, self.state.turn
            ));
        }
        // Every action the run carried out took one turn, and it recorded
        // each of them.
        if let Some(recording) = &self.recording
            && recording.len() != self.state.turn
        {
            return Err(format!(
                "a recording of {} actions for a run at turn {}",
                recording.len(),
                self.state.turn
            ));
        }
        let lives = self.config.simulation.lives;
        if p.lives > lives || (p.lives == 0) != (self.state.outcome == Outcome::Lost) {
            return Err(format!(
                "{} lives of {lives} for a run that is {}",
                p.lives, self.state.outcome
            ));
        }
        if self.state.log.len() > LOG_LINES
            || self
                .state
                .log
                .iter()
                .any(|l| l.chars().any(char::is_control))
        {
            return Err("the message log is too long or holds control characters".into());
        }
        Ok(())
    }

    /// Every level visited is of the config's size and layout at its depth,
    /// with its fog of war, and monsters on its floor of known kinds, in
    /// step with the player and no more than were placed.
    fn check_levels(&self) -> Result<(), String> {
        let p = &self.state.player;
        // Monsters are only ever made when a level is first visited, so the
        // kills and the survivors together are at most what was placed.
        let mut placed = 0u64;
        let mut alive = 0u64;
        // A slowed monster (rules 4) waits twice its interval.
        let slowest = interval(5) * 2;
        for (i, state) in self.state.levels.iter().enumerate() {
            let Some(state) = state else { continue };
            let depth = i as u16 + 1;
            let level = &state.level;
            let at = |what: String| format!("depth {depth}: {what}");
            if level.depth() != depth
                || level.width() != self.config.width
                || level.height() != self.config.height
            {
                return Err(format!(
                    "level slot {depth} holds a {}x{} level of depth {}",
                    level.width(),
                    level.height(),
                    level.depth()
                ));
            }
            self.check_layout(level).map_err(at)?;
            let cells = usize::from(level.width()) * usize::from(level.height());
            if state.seen.len() != cells.div_ceil(64) {
                return Err(at("fog of war of the wrong size".into()));
            }
            // The level's share (under rules 4 its groups filled by packs,
            // and what summoning may add), and one for each monster its
            // vaults draw.
            let wanted =
                monsters_most(&self.config, depth) + vault_monsters(&self.vaults, level).len();
            placed += wanted as u64;
            alive += state.monsters.len() as u64;
            if state.monsters.len() > wanted {
                return Err(at(format!(
                    "{} monsters where at most {wanted} are placed",
                    state.monsters.len()
                )));
            }
            self.check_doors(level).map_err(at)?;
            let current = depth == p.depth && self.state.outcome == Outcome::Playing;
            for (k, m) in state.monsters.iter().enumerate() {
                let inside = m.pos.x < level.width() && m.pos.y < level.height();
                if !inside
                    || !self.stands_on(level, m.pos)
                    || usize::from(m.kind) >= self.state.kinds.len()
                    || m.id as usize >= wanted
                {
                    return Err(at(format!(
                        "monster {k} is off the floor, of no known kind or numbered {}",
                        m.id
                    )));
                }
                if let Some(memory) = m.memory
                    && (memory.x >= level.width()
                        || memory.y >= level.height()
                        || !level.tile(memory).is_walkable())
                {
                    return Err(at(format!("monster {k} remembers a cell off the floor")));
                }
                // No monster is more than one move ahead of the player; on
                // the player's level none is behind either (each step lets
                // them catch up), so a step's monster loop stays short.
                let ahead = m.next > p.next.saturating_add(slowest);
                let behind = current && m.next < p.next;
                if ahead || behind {
                    return Err(at(format!(
                        "monster {k}'s next tick {} is out of step with the player's {}",
                        m.next, p.next
                    )));
                }
                if state.monsters[..k]
                    .iter()
                    .any(|o| o.pos == m.pos || o.id == m.id)
                {
                    return Err(at("two monsters share a cell or an id".into()));
                }
            }
        }
        if u64::from(self.state.killed) + alive > placed {
            return Err(format!(
                "{} monsters killed and {alive} alive, but only {placed} were ever placed",
                self.state.killed
            ));
        }
        Ok(())
    }

    /// The player stands on open floor of a stored level, under no monster.
    fn check_player(&self) -> Result<(), String> {
        let p = &self.state.player;
        let Some(state) = self.level_state(p.depth) else {
            return Err(format!(
                "the player is on depth {}, which is not stored",
                p.depth
            ));
        };
        let level = &state.level;
        if p.pos.x >= level.width() || p.pos.y >= level.height() || !self.stands_on(level, p.pos) {
            return Err("the player stands outside the open floor".into());
        }
        if state.monster_at(p.pos).is_some() {
            return Err("a monster stands on the player".into());
        }
        Ok(())
    }

    /// Whether someone or something may be on `p` of `level`: open ground,
    /// which under rules 3 is no closed or secret door (a mover opens one
    /// and stays, and a door is closed only over an empty doorway).
    pub(in crate::sim) fn stands_on(&self, level: &Level, p: Pos) -> bool {
        let tile = level.tile(p);
        match self.doors() {
            Doors::Doorways => tile.is_walkable(),
            Doors::Doors => tile.is_walkable() && !matches!(tile, Tile::Door | Tile::SecretDoor),
        }
    }

    /// Doors as the run's rules make them: under rules 1 and 2 no door is
    /// ever opened, closed or hidden, so none is open or secret.
    fn check_doors(&self, level: &Level) -> Result<(), String> {
        if self.doors() == Doors::Doorways
            && let Some(i) = level
                .tiles()
                .iter()
                .position(|t| matches!(t, Tile::OpenDoor | Tile::SecretDoor))
        {
            return Err(format!(
                "an {} at {}, which rules {} do not have",
                level.tiles()[i].name(),
                level.pos(i),
                self.config.revisions.rules
            ));
        }
        Ok(())
    }

    /// Where the player searched: in order, each cell once, on a level
    /// visited, on a cell the player could have stood on, at least a turn
    /// each, and no more turns in all than the run has taken.
    fn check_searched(&self) -> Result<(), String> {
        let searched = &self.state.searched;
        if searched.windows(2).any(|w| w[0].key() >= w[1].key()) {
            return Err("the cells searched are out of order or listed twice".into());
        }
        let mut turns = 0u64;
        for s in searched {
            let level = self.level_state(s.depth).map(|l| &l.level);
            let fine = level.is_some_and(|level| {
                s.pos.x < level.width()
                    && s.pos.y < level.height()
                    && !level.is_border(s.pos)
                    && level.tile(s.pos).is_walkable()
            });
            if !fine || s.turns == 0 {
                return Err(format!(
                    "a search on depth {} at {} the player could not have made",
                    s.depth, s.pos
                ));
            }
            turns += u64::from(s.turns);
        }
        if turns > self.state.turn {
            return Err(format!(
                "{turns} turns of searching in a run at turn {}",
                self.state.turn
            ));
        }
        Ok(())
    }

    /// A level's rooms, doors and stairs as the config makes them at its
    /// depth: so many rooms, so many doors a room at most, and exactly the
    /// stairs each way that link it to its neighbours (the k-th down
    /// staircase leads to the k-th up staircase below).
    fn check_layout(&self, level: &Level) -> Result<(), String> {
        let own = self.config.at_depth(level.depth());
        let rooms = &own.rooms;
        let count = level.rooms().len();
        // Each kind's areas, as the kind says (`generate/kinds/`).
        let areas = &crate::generate::kind_of(own.kind).areas;
        let doors = (areas.max_doors)(&own);
        if areas.counted
            && (count < usize::from(rooms.count.min) || count > usize::from(rooms.count.max))
        {
            return Err(format!(
                "{count} rooms, where the config makes {} to {}",
                rooms.count.min, rooms.count.max
            ));
        }
        if let Some(i) = level
            .rooms()
            .iter()
            .position(|r| !matches!(r.shape, Shape::Vault(_)) && !(areas.fits)(&r.shape))
        {
            return Err(format!(
                "area {i} is not {}, which a {} level has",
                areas.what,
                own.kind.name()
            ));
        }
        if let Some(i) = level.rooms().iter().position(|r| {
            // A rooms level counts its vaults' doors too, as it always did.
            (areas.counted || !matches!(r.shape, Shape::Vault(_)))
                && r.doors.len() > usize::from(doors)
        }) {
            return Err(format!("room {i} has more than {doors} doors"));
        }
        // A vault room must be one of the run's vaults, laid down in a way
        // it allows, filling its box.
        for (i, room) in level.rooms().iter().enumerate() {
            let Shape::Vault(v) = room.shape else {
                continue;
            };
            let Some(vault) = self.vaults.get(usize::from(v.vault)) else {
                return Err(format!(
                    "room {i} is vault {}, which the run has not",
                    v.vault
                ));
            };
            let allowed = v.quarter_turns < 4
                && (v.quarter_turns == 0 || vault.rotate)
                && (!v.mirrored || vault.mirror);
            let d = vault.drawing().oriented(Orientation {
                quarter_turns: v.quarter_turns,
                mirrored: v.mirrored,
            });
            if !allowed || (d.width(), d.height()) != (v.bounds.width, v.bounds.height) {
                return Err(format!(
                    "room {i} is vault {:?} laid down in a way it does not allow or does not fit",
                    vault.name
                ));
            }
        }
        let (up, down) = self.config.stair_counts(level.depth());
        let have = (
            level.stairs_going(StairDirection::Up).count(),
            level.stairs_going(StairDirection::Down).count(),
        );
        if have != (up, down) {
            return Err(format!(
                "{} up and {} down stairs, where the config makes {up} and {down}",
                have.0, have.1
            ));
        }
        Ok(())
    }

    /// The Combat part of [`Run::validate`]: item kinds that pass their
    /// checks, one floor and one kill count per slot and kind, hit points
    /// within their maxima, every monster's hit points recorded, items on
    /// open floor and of known kinds, equipment of the right class, a pack
    /// within its slots.
    fn check_combat(&self) -> Result<(), String> {
        let Some(state) = &self.state.combat else {
            return Ok(());
        };
        ItemKind::check_list(&state.items).map_err(|p| match p.index {
            Some(i) => format!("item kind {i}: {}: {}", p.field, p.message),
            None => format!("item kinds: {}", p.message),
        })?;
        for (i, k) in self.state.kinds.iter().enumerate() {
            if k.hp.max() == 0 || k.hp.max() > 10_000 {
                return Err(format!("monster kind {i} rolls no usable hit points"));
            }
        }
        if state.floors.len() != self.state.levels.len()
            || state.kills.len() != self.state.kinds.len()
        {
            return Err("Combat state of the wrong size".into());
        }
        if u64::from(self.state.killed) != state.kills.iter().map(|&k| u64::from(k)).sum::<u64>() {
            return Err("kills by kind do not add up to the kills".into());
        }
        let hero = &state.hero;
        let known = |k: u16| usize::from(k) < state.items.len();
        // A pack of more than 26 letters, or with a misplaced mark, does
        // not decode; here its kinds, and stacks only where rules 2 make
        // them (potions and scrolls).
        if !hero.pack.lines().all(|(_, l)| known(l.kind)) {
            return Err("the pack holds unknown items".into());
        }
        let keep_letters = self.config.revisions.rules >= 2;
        if hero
            .pack
            .lines()
            .any(|(_, l)| l.count > 1 && !(keep_letters && stacks(state.kind(l.kind).class)))
            || (!keep_letters && hero.pack.lines().enumerate().any(|(n, (i, _))| n != i))
        {
            return Err("the pack holds a stack or a gap its rules do not make".into());
        }
        if !hero
            .weapon
            .is_none_or(|k| known(k) && matches!(state.kind(k).class, ItemClass::Weapon { .. }))
            || !hero
                .armour
                .is_none_or(|k| known(k) && matches!(state.kind(k).class, ItemClass::Armour { .. }))
        {
            return Err("the player wields or wears something that is no weapon or armour".into());
        }
        if hero.stoneskin > 100 {
            return Err("stoneskin armour above 100".into());
        }
        let alive = self.state.outcome != Outcome::Lost;
        if hero.hp > self.max_hp() || (alive && hero.hp == 0) {
            return Err(format!(
                "{} hit points of {} for a run that is {}",
                hero.hp,
                self.max_hp(),
                self.state.outcome
            ));
        }
        for (slot, (floor, level)) in state.floors.iter().zip(&self.state.levels).enumerate() {
            let depth = slot + 1;
            let Some(level_state) = level else {
                if !floor.items.is_empty() || !floor.monster_hp.is_empty() {
                    return Err(format!(
                        "depth {depth}: Combat state for a level not visited"
                    ));
                }
                continue;
            };
            let level = &level_state.level;
            if floor.monster_hp.len() != floor.monster_max_hp.len()
                || floor.monster_hp.len() > 1000
                || floor
                    .monster_hp
                    .iter()
                    .zip(&floor.monster_max_hp)
                    .any(|(&hp, &max)| hp > max || max > 10_000)
            {
                return Err(format!("depth {depth}: monster hit points out of range"));
            }
            for m in &level_state.monsters {
                if floor
                    .monster_hp
                    .get(m.id as usize)
                    .is_none_or(|&hp| hp == 0)
                {
                    return Err(format!("depth {depth}: monster {} has no hit points", m.id));
                }
            }
            if floor.items.len() > 100_000 {
                return Err(format!("depth {depth}: too many items"));
            }
            for item in &floor.items {
                let inside = item.pos.x < level.width() && item.pos.y < level.height();
                if !inside || !self.stands_on(level, item.pos) || !known(item.kind) {
                    return Err(format!(
                        "depth {depth}: an item off the floor or of no known kind"
                    ));
                }
            }
        }
        Ok(())
    }

    /// What rules 4 keep: present exactly for a Combat run under rules 4
    /// on; one identification and one look a kind of item, dealt as a run
    /// deals them; timed effects as play makes them; one mind a monster
    /// id on each level visited, none on a level not visited.
    fn check_tactics(&self) -> Result<(), String> {
        let wanted = self.state.combat.is_some() && self.config.revisions.rules >= 4;
        let (Some(tactics), Some(combat)) = (&self.state.tactics, &self.state.combat) else {
            return match wanted || self.state.tactics.is_some() {
                true => Err("the rules and the run's rules-4 state disagree".into()),
                false => Ok(()),
            };
        };
        if !wanted {
            return Err("the rules and the run's rules-4 state disagree".into());
        }
        let kinds = &combat.items;
        if tactics.known.len() != kinds.len()
            || kinds
                .iter()
                .zip(&tactics.known)
                .any(|(k, &known)| !known && !appearance::comes_unknown(&k.class))
        {
            return Err("what the player knows of the item kinds does not fit them".into());
        }
        if !appearance::is_valid(kinds, &tactics.appearances) {
            return Err("the looks of the item kinds are not a dealing a run makes".into());
        }
        let turn = self.state.turn;
        if !tactics.effects.is_valid(turn, MAX_EFFECT_TURNS) {
            return Err("the player's timed effects are not what play makes".into());
        }
        if !tactics.launcher.is_none_or(|k| {
            kinds
                .get(usize::from(k))
                .is_some_and(|k| matches!(k.class, ItemClass::Launcher { .. }))
        }) {
            return Err("the readied launcher is no launcher".into());
        }
        if tactics.spare_charges.len() != kinds.len()
            || kinds
                .iter()
                .zip(&tactics.spare_charges)
                .any(|(k, &n)| n > 10_000 || (n > 0 && !matches!(k.class, ItemClass::Wand { .. })))
        {
            return Err("spare wand charges that do not fit the item kinds".into());
        }
        if tactics.minds.len() != self.state.levels.len() {
            return Err("monsters' minds for the wrong number of levels".into());
        }
        for (slot, (minds, floor)) in tactics.minds.iter().zip(&combat.floors).enumerate() {
            if minds.len() != floor.monster_hp.len() {
                return Err(format!(
                    "depth {}: {} monsters' minds for {} monsters",
                    slot + 1,
                    minds.len(),
                    floor.monster_hp.len()
                ));
            }
            if minds
                .iter()
                .any(|m| !m.effects.is_valid(turn, MAX_EFFECT_TURNS))
            {
                return Err(format!(
                    "depth {}: a monster's timed effects are not what play makes",
                    slot + 1
                ));
            }
        }
        Ok(())
    }
}
