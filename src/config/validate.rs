//! What the values of one level's config mean together, section by
//! section, in the order errors are reported: serde only knows each
//! value's type, and a person editing the file needs the first thing
//! wrong, with the field to blame.

use crate::config::Config;
use crate::config::corridors::CorridorStyle;
use crate::config::limits::{
    MAX_ATTEMPTS_PER_ROOM, MAX_COST, MAX_DOORS, MAX_GIVE_UP_STREAK, MAX_GRID_SEGMENT,
    MAX_GRID_SPACING, MAX_LEVELS, MAX_LOOPS, MAX_ROOMS, MAX_SIDE, MAX_TOTAL_CELLS, MAX_VAULTS,
    MIN_HEIGHT, MIN_ROOM_HEIGHT, MIN_ROOM_WIDTH, MIN_WIDTH,
};
use crate::config::problem::{Problem, check, check_fraction, check_range, within, within_unit};
use crate::config::profile;

impl Config {
    /// Checks the meaning of the values. The first problem found is
    /// returned with the dotted path of the field it is about. The top
    /// level is checked as it stands, then each profile's band, and then
    /// the config of every stretch of depths the same profiles apply to,
    /// as a whole; a problem there names the profile and the depths
    /// (`profiles[1].rooms.count.max`, `at depths 4-6: ...`).
    pub fn validate(&self) -> Result<(), Problem> {
        self.revisions.check()?;
        self.validate_level()?;
        profile::check(self)
    }

    /// The checks of one level's settings: [`Config::validate`] without
    /// the profiles.
    /// A level's settings, section by section, in the order errors are
    /// reported (the first problem found is the one named).
    pub(super) fn validate_level(&self) -> Result<(), Problem> {
        self.check_size()?;
        self.check_rooms()?;
        self.check_hardness()?;
        self.check_tunnel()?;
        self.check_stairs()?;
        self.check_corridor_layout()?;
        self.check_loops()?;
        self.check_vaults()?;
        self.check_kinds()?;
        self.check_simulation()?;
        self.check_combat()?;
        self.check_retries()?;
        self.check_rooms_fit()?;
        Ok(())
    }

    /// The level's size and the stack's, within what a run may hold.
    fn check_size(&self) -> Result<(), Problem> {
        let c = self;
        within(c.width, MIN_WIDTH..=MAX_SIDE, "width")?;
        within(c.height, MIN_HEIGHT..=MAX_SIDE, "height")?;
        within(c.levels, 1..=MAX_LEVELS, "levels")?;
        let total = u64::from(c.width) * u64::from(c.height) * u64::from(c.levels);
        check(total <= MAX_TOTAL_CELLS, "levels", || {
            format!(
                "{} levels of {}x{} are {total} cells, more than the {MAX_TOTAL_CELLS} a run may hold; \
                 use fewer or smaller levels",
                c.levels, c.width, c.height
            )
        })?;
        Ok(())
    }

    /// The rooms' counts, sizes, shapes and placement effort.
    fn check_rooms(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        check_range(r.count, "rooms.count", 1, MAX_ROOMS)?;
        // Rooms stay off the border, so the inner area bounds their size.
        check_range(r.width, "rooms.width", MIN_ROOM_WIDTH, c.width - 2)?;
        check_range(r.height, "rooms.height", MIN_ROOM_HEIGHT, c.height - 2)?;
        check_fraction(r.circle_share, "rooms.circle_share")?;
        if r.circle_share > 0.0 {
            let inner = (c.width.min(c.height) - 3) / 2;
            check_range(r.circle_radius, "rooms.circle_radius", 1, inner)?;
        }
        within(
            r.attempts_per_room,
            1..=MAX_ATTEMPTS_PER_ROOM,
            "rooms.attempts_per_room",
        )?;
        within(
            r.give_up_streak,
            1..=MAX_GIVE_UP_STREAK,
            "rooms.give_up_streak",
        )?;
        check(
            r.max_floor_share.is_finite() && r.max_floor_share > 0.0 && r.max_floor_share <= 1.0,
            "rooms.max_floor_share",
            || {
                format!(
                    "must be a number above 0 and at most 1, got {}",
                    r.max_floor_share
                )
            },
        )?;
        within(r.max_doors, 1..=MAX_DOORS, "rooms.max_doors")?;
        Ok(())
    }

    /// The hardness field's noise.
    fn check_hardness(&self) -> Result<(), Problem> {
        let c = self;
        let h = &c.hardness;
        within_unit(h.feature_size, 1..=1024, " cells", "hardness.feature_size")?;
        within(h.octaves, 1..=8, "hardness.octaves")?;
        check_fraction(h.persistence, "hardness.persistence")?;
        Ok(())
    }

    /// The Tunnel's prices.
    fn check_tunnel(&self) -> Result<(), Problem> {
        let c = self;
        let t = &c.tunnel;
        within(t.step_cost, 1..=MAX_COST, "tunnel.step_cost")
            .map_err(|p| p.because("every step has a cost"))?;
        within(t.turn_penalty, 0..=MAX_COST, "tunnel.turn_penalty")?;
        within(t.soft_below, 0..=254, "tunnel.soft_below")?;
        check(
            t.hardness_weight.is_finite() && (0.0..=16.0).contains(&t.hardness_weight),
            "tunnel.hardness_weight",
            || format!("must be a number from 0 to 16, got {}", t.hardness_weight),
        )?;
        within(t.open_cost, 1..=MAX_COST, "tunnel.open_cost")?;
        Ok(())
    }

    /// Staircases, and the rooms they need.
    fn check_stairs(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        let s = &c.stairs;
        within(s.per_level, 1..=8, "stairs.per_level")?;
        // Every staircase of a level stands in a room of its own.
        let stair_rooms = c.stair_rooms_needed();
        if r.count.min < stair_rooms {
            return Err(Problem {
                field: "rooms.count.min".into(),
                message: format!(
                    "must be at least {stair_rooms} (it is {}): with {} staircase(s) each way \
                     and {} level(s), the busiest level needs {stair_rooms} rooms, since each \
                     staircase stands in a room of its own; raise rooms.count.min or lower \
                     stairs.per_level",
                    r.count.min, s.per_level, c.levels
                ),
                instead: Some("stairs.per_level".into()),
            });
        }
        Ok(())
    }

    /// The grid styles' spacing and what the door-grown styles need.
    fn check_corridor_layout(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        within_unit(
            c.grid_spacing,
            3..=MAX_GRID_SPACING,
            " cells",
            "grid_spacing",
        )?;
        check_range(c.grid_segment, "grid_segment", 1, MAX_GRID_SEGMENT)?;
        // Grid and DeadEnd join rooms only through corridors that leave
        // doors: with one door a room, at most one corridor may end at a
        // room, and the rest would all have to meet other corridors.
        if matches!(c.corridors, CorridorStyle::Grid | CorridorStyle::DeadEnd) && r.max_doors < 2 {
            return Err(Problem {
                field: "rooms.max_doors".into(),
                message: format!(
                    "must be at least 2 with corridors: {} (it is {}): that style joins rooms by \
                     corridors growing out of doors, which one door a room cannot do; raise \
                     rooms.max_doors or use Tunnel or Straight",
                    c.corridors.name(),
                    r.max_doors
                ),
                instead: None,
            });
        }
        Ok(())
    }

    /// Extra loops and room loops.
    fn check_loops(&self) -> Result<(), Problem> {
        let c = self;
        let l = &c.extra_loops;
        within(l.count, 0..=MAX_LOOPS, "extra_loops.count")?;
        check(
            l.ratio.is_finite() && l.ratio > 1.0 && l.ratio <= 1000.0,
            "extra_loops.ratio",
            || {
                format!(
                    "must be a number above 1 and at most 1000, got {} (a shortcut must save \
                     walking to be worth making)",
                    l.ratio
                )
            },
        )?;
        within(l.max_length, 1..=16, "extra_loops.max_length")?;
        let rl = &c.room_loops;
        within(rl.count, 0..=MAX_LOOPS, "room_loops.count")?;
        check(
            rl.ratio.is_finite() && rl.ratio > 1.0 && rl.ratio <= 1000.0,
            "room_loops.ratio",
            || {
                format!(
                    "must be a number above 1 and at most 1000, got {} (a loop must save walking \
                     to be worth making)",
                    rl.ratio
                )
            },
        )?;
        within(rl.reach, 1..=MAX_SIDE, "room_loops.reach")?;
        Ok(())
    }

    /// How many vaults a level may hold.
    fn check_vaults(&self) -> Result<(), Problem> {
        let c = self;
        // A vault is one of the level's rooms.
        check_range(
            c.vaults.count,
            "vaults.count",
            0,
            MAX_VAULTS.min(c.rooms.count.max),
        )?;
        Ok(())
    }

    /// The cave's automaton and the labyrinth's maze, checked whatever
    /// the kind (a profile may switch it on at depth).
    fn check_kinds(&self) -> Result<(), Problem> {
        let (cave, maze) = (&self.cave, &self.labyrinth);
        check(
            cave.open_share.is_finite() && cave.open_share > 0.0 && cave.open_share < 1.0,
            "cave.open_share",
            || format!("must be above 0 and below 1, got {}", cave.open_share),
        )?;
        within(cave.passes, 0..=12, "cave.passes")?;
        within(cave.birth, 1..=8, "cave.birth")?;
        within(cave.survival, 0..=8, "cave.survival")?;
        within_unit(
            cave.smallest_region,
            1..=10_000,
            " cells",
            "cave.smallest_region",
        )?;
        check_fraction(maze.loops, "labyrinth.loops")?;
        check_range(maze.halls, "labyrinth.halls", 0, 16)?;
        Ok(())
    }

    /// The rules shared by both games.
    fn check_simulation(&self) -> Result<(), Problem> {
        let c = self;
        let sim = &c.simulation;
        within(sim.lives, 1..=99, "simulation.lives")?;
        within(sim.sight_radius, 1..=40, "simulation.sight_radius")?;
        within(
            sim.perception_radius,
            1..=40,
            "simulation.perception_radius",
        )?;
        within(sim.player_speed, 5..=20, "simulation.player_speed")?;
        check(sim.monsters_max <= 1000, "simulation.monsters_max", || {
            format!("must be at most 1000, got {}", sim.monsters_max)
        })?;
        check(sim.dig_per_turn >= 1, "simulation.dig_per_turn", || {
            "must be at least 1, or tunnellers never get through".into()
        })?;
        check_fraction(sim.search_chance, "simulation.search_chance")?;
        check_fraction(
            sim.passive_search_chance,
            "simulation.passive_search_chance",
        )?;
        check_fraction(c.secret_doors, "secret_doors")?;
        Ok(())
    }

    /// The Combat rules' numbers.
    fn check_combat(&self) -> Result<(), Problem> {
        let c = self;
        let sim = &c.simulation;
        let cb = &sim.combat;
        check(
            (1..=1000).contains(&cb.player_hp),
            "simulation.combat.player_hp",
            || format!("must be from 1 to 1000, got {}", cb.player_hp),
        )?;
        check(
            cb.hp_per_level <= 100,
            "simulation.combat.hp_per_level",
            || format!("must be at most 100, got {}", cb.hp_per_level),
        )?;
        check(
            (1..=1_000_000).contains(&cb.first_level_xp),
            "simulation.combat.first_level_xp",
            || format!("must be from 1 to 1000000, got {}", cb.first_level_xp),
        )?;
        check(
            (1..=50).contains(&cb.max_level),
            "simulation.combat.max_level",
            || format!("must be from 1 to 50, got {}", cb.max_level),
        )?;
        check(cb.unarmed.max() >= 1, "simulation.combat.unarmed", || {
            "must roll at least 1".into()
        })?;
        check(
            (1..=100).contains(&cb.hit_chance),
            "simulation.combat.hit_chance",
            || format!("must be from 1 to 100, got {}", cb.hit_chance),
        )?;
        check(
            cb.armour_step <= 100,
            "simulation.combat.armour_step",
            || format!("must be at most 100, got {}", cb.armour_step),
        )?;
        check(
            cb.min_hit <= cb.hit_chance,
            "simulation.combat.min_hit",
            || {
                format!(
                    "must be at most hit_chance ({}), got {}",
                    cb.hit_chance, cb.min_hit
                )
            },
        )?;
        check(
            cb.items_per_level <= 1000,
            "simulation.combat.items_per_level",
            || format!("must be at most 1000, got {}", cb.items_per_level),
        )?;
        check(
            cb.cautious_below <= 100,
            "simulation.combat.cautious_below",
            || format!("must be at most 100, got {}", cb.cautious_below),
        )?;
        Ok(())
    }

    /// Attempts at a level.
    fn check_retries(&self) -> Result<(), Problem> {
        let c = self;
        check(c.generation_retries >= 1, "generation_retries", || {
            "must be at least 1".into()
        })?;
        Ok(())
    }

    /// Whether the fewest rooms allowed can fit at all.
    fn check_rooms_fit(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        // Can the minimum number of rooms fit at all? Pack the smallest room
        // the config allows, with the one-cell gap rooms keep, in a grid over
        // the area inside the border. No placement can beat that packing.
        let (small_w, small_h) = smallest_room(self);
        let per_row = (u32::from(c.width) - 2 + 1) / (small_w + 1);
        let per_col = (u32::from(c.height) - 2 + 1) / (small_h + 1);
        let capacity = per_row * per_col;
        check(
            u32::from(r.count.min) <= capacity,
            "rooms.count.min",
            || {
                format!(
                    "{} rooms cannot fit: a {}x{} level holds at most {capacity} rooms of the \
                 smallest allowed size {small_w}x{small_h} with the one-cell gap rooms keep \
                 between them; lower rooms.count.min or enlarge the level",
                    r.count.min, c.width, c.height
                )
            },
        )?;
        Ok(())
    }
}

/// The narrowest and shortest room the config can produce.
fn smallest_room(c: &Config) -> (u32, u32) {
    let r = &c.rooms;
    let (mut w, mut h) = (u32::from(r.width.min), u32::from(r.height.min));
    if r.circle_share > 0.0 {
        let d = 2 * u32::from(r.circle_radius.min) + 1;
        if d * d < w * h {
            (w, h) = (d, d);
        }
    }
    (w, h)
}
