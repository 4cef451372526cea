//! Stomp's rules (001's game): the player stepping onto a monster crushes
//! it; a monster stepping onto the player dies and costs a life. Under
//! Combat the player still crushes whatever stands on a staircase they
//! arrive by, so the turn uses [`Run::player_arrives`] for both.

use crate::geom::Pos;
use crate::sim::state::Run;
use crate::sim::vocabulary::{Event, Outcome};

impl Run {
    /// The player moves onto `to`, stomping whatever stands there.
    pub(in crate::sim) fn player_arrives(&mut self, to: Pos, events: &mut Vec<Event>) {
        if let Some(m) = self.current().monster_at(to) {
            let monster = self.current_mut().monsters.remove(m);
            let name = self.state.kinds[usize::from(monster.kind)].name.clone();
            self.state.killed += 1;
            self.say(format!("You crush the {name}."));
            events.push(Event::Killed { kind: name });
        }
        self.state.player.pos = to;
        events.push(Event::Moved { to });
    }

    /// Monster `i` reaches the player: it dies, and the player loses a life
    /// (and the run, with the last).
    pub(in crate::sim) fn monster_hits_and_dies(&mut self, i: usize, events: &mut Vec<Event>) {
        let kind = usize::from(self.current().monsters[i].kind);
        let name = self.state.kinds[kind].name.clone();
        self.current_mut().monsters.remove(i);
        self.state.player.lives = self.state.player.lives.saturating_sub(1);
        let lives = self.state.player.lives;
        let left = self.lives_in_words(lives);
        self.say(format!("The {name} hits you and dies; {left} left."));
        events.push(Event::Hit { kind: name, lives });
        if lives == 0 {
            self.state.outcome = Outcome::Lost;
            self.say("You die.".into());
            events.push(Event::Lost);
        }
    }
}
