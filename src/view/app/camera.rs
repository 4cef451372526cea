//! The camera: which level cell the map view's top-left corner shows,
//! kept so the player (or the look cursor) stays in view with a margin,
//! and the view's size. Apart, as pure arithmetic with its own test.

use super::App;
use super::Mode;
use super::TEXT_ROWS;

impl App {
    /// Top-left level cell of the map view, if it has been placed for the
    /// current depth.
    pub fn camera(&self) -> Option<(i32, i32)> {
        self.camera
            .filter(|(depth, _)| *depth == self.run.player().depth)
            .map(|(_, c)| c)
    }

    /// The terminal's size changed: the map view follows.
    pub fn resize(&mut self, width: u16, height: u16) {
        let view = (width, height.saturating_sub(TEXT_ROWS));
        if view != self.view {
            self.view = view;
            self.camera = None;
            self.follow();
        }
    }

    /// Moves the camera so the focus (the player, or the look cursor)
    /// stays in view with a margin; the map scrolls only when it must.
    pub(super) fn follow(&mut self) {
        let focus = match self.mode {
            Mode::Look { cursor } | Mode::Aim { cursor, .. } => cursor,
            _ => self.run.player().pos,
        };
        let level = &self.run.current().level;
        let previous = self.camera();
        // Everything in sight must be on screen: the margin is at least the
        // sight radius (beyond a quarter of the view), where the view allows.
        let sight = u16::from(self.run.config().simulation.sight_radius);
        let camera = follow_axis(
            level.width(),
            self.view.0,
            focus.x,
            sight,
            previous.map(|c| c.0),
        );
        let camera = (
            camera,
            follow_axis(
                level.height(),
                self.view.1,
                focus.y,
                sight,
                previous.map(|c| c.1),
            ),
        );
        self.camera = Some((self.run.player().depth, camera));
    }
}

/// One axis of the camera: centred when the level fits, otherwise kept
/// still until the focus comes within a quarter of the view of an edge.
fn follow_axis(level: u16, view: u16, focus: u16, sight: u16, previous: Option<i32>) -> i32 {
    let (level, view, focus) = (i32::from(level), i32::from(view.max(1)), i32::from(focus));
    if level <= view {
        return -(view - level) / 2;
    }
    let margin = (view / 4).max(i32::from(sight)).min((view - 1) / 2).max(0);
    let mut camera = previous.unwrap_or(focus - view / 2);
    if focus - camera < margin {
        camera = focus - margin;
    }
    if camera + view - 1 - focus < margin {
        camera = focus - (view - 1 - margin);
    }
    if previous.is_none() {
        camera = focus - view / 2;
    }
    camera.clamp(0, level - view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_centres_small_levels_and_scrolls_large_ones_late() {
        assert_eq!(follow_axis(60, 80, 10, 0, None), -10);
        // First placement centres on the focus, clamped to the level.
        assert_eq!(follow_axis(150, 80, 75, 0, None), 35);
        assert_eq!(follow_axis(150, 80, 3, 0, None), 0);
        assert_eq!(follow_axis(150, 80, 149, 0, None), 70);
        // Inside the margin the camera stays put.
        assert_eq!(follow_axis(150, 80, 60, 0, Some(35)), 35);
        // Past it, it moves just enough.
        assert_eq!(follow_axis(150, 80, 95, 0, Some(35)), 36);
        assert_eq!(follow_axis(150, 80, 54, 0, Some(35)), 34);
        // The margin grows to the sight radius: on 21 rows with sight 8,
        // the focus stays 8 rows from either edge.
        assert_eq!(follow_axis(150, 21, 50, 8, Some(42)), 42);
        assert_eq!(follow_axis(150, 21, 49, 8, Some(42)), 41);
        assert_eq!(follow_axis(150, 21, 55, 8, Some(42)), 43);
    }
}
