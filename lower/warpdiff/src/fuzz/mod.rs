//! The fuzz loop: `warpdiff fuzz` and the cargo-fuzz targets.

pub mod case;
pub mod external;
pub mod gpu;
pub mod hang;
pub mod levels;
pub mod progress;
pub mod run;
pub mod seen;
