//! Players that are not people: the autopilot family (Stomp's and
//! Combat's), exploring, hunting, searching for secret doors and
//! travelling to the stairs. They read a
//! run and choose its next action; they change only its derived data (the
//! walking map they search), never what it saves.

pub mod autopilot;
mod autopilot_combat;
mod explore;
mod hunt;
mod search;
pub mod travel;
pub use explore::Plan;
