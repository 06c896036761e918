//! The reference interpreter as an [`Engine`]: [`InterpEngine`] compiles a
//! program into an [`Interp`] and runs it; its one error, [`OutOfFuel`],
//! is the engines' [`RunError::OutOfFuel`].

use super::fuel::OutOfFuel;
use super::run::Interp;
use crate::engine::{CompileError, Compiled, Engine, RunError};
use crate::ir::{Inputs, Program};
use crate::outcome::Outcome;

/// The reference interpreter as an [`Engine`].
#[derive(Clone, Copy, Debug, Default)]
pub struct InterpEngine;

struct Interpreted<'p> {
    interp: Interp<'p>,
}

impl Compiled for Interpreted<'_> {
    fn run(&self, inputs: &Inputs) -> Result<Outcome, RunError> {
        Ok(self.interp.run(inputs)?)
    }
}

impl Engine for InterpEngine {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn bounded_runs(&self) -> bool {
        true
    }

    fn compile<'p>(
        &self,
        prog: &'p Program,
        fuel: u64,
    ) -> Result<Box<dyn Compiled + 'p>, CompileError> {
        Ok(Box::new(Interpreted {
            interp: Interp::new(prog).with_fuel(fuel),
        }))
    }
}

impl From<OutOfFuel> for RunError {
    fn from(OutOfFuel { steps, line }: OutOfFuel) -> Self {
        RunError::OutOfFuel { steps, line }
    }
}
