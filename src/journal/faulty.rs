//! A store that fails on purpose, for fault tests: an append that writes part of its line
//! and then fails (a full disk), a sync that fails (an I/O error), a head record that cannot
//! be written, a file that cannot be cut back, a snapshot that cannot be written. The test
//! holds a [`Faults`] handle and changes the plan between writes; clearing it is the fault
//! going away.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use super::file::JournalFile;
use super::store::Store;

/// Which writes fail.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Appends write this many bytes of their line and then fail (`Some(0)`: at once).
    pub write_after: Option<usize>,
    /// Syncs fail (the line was written whole).
    pub sync: bool,
    /// The head record cannot be written.
    pub head: bool,
    /// The file cannot be cut back.
    pub truncate: bool,
    /// The snapshot cannot be written.
    pub snapshot: bool,
}

impl Plan {
    /// Appends fail after `n` bytes.
    pub fn write_after(n: usize) -> Plan {
        Plan {
            write_after: Some(n),
            ..Plan::default()
        }
    }

    /// Syncs fail.
    pub fn sync() -> Plan {
        Plan {
            sync: true,
            ..Plan::default()
        }
    }

    /// Head records cannot be written.
    pub fn head() -> Plan {
        Plan {
            head: true,
            ..Plan::default()
        }
    }

    /// Snapshots cannot be written.
    pub fn snapshot() -> Plan {
        Plan {
            snapshot: true,
            ..Plan::default()
        }
    }

    /// This plan, and the file cannot be cut back either.
    pub fn and_truncate(self) -> Plan {
        Plan {
            truncate: true,
            ..self
        }
    }
}

/// The test's handle on the faults of one journal.
#[derive(Debug, Clone, Default)]
pub(crate) struct Faults(Arc<Mutex<Plan>>);

impl Faults {
    /// Makes the writes from now on fail as `plan` says.
    pub fn set(&self, plan: Plan) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = plan;
    }

    /// The fault goes away.
    pub fn clear(&self) {
        self.set(Plan::default());
    }

    fn plan(&self) -> Plan {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Puts a faulty store around `journal`'s (no faults until the plan says so).
pub(crate) fn inject(journal: &mut JournalFile) -> Faults {
    let faults = Faults::default();
    let handle = faults.clone();
    journal.wrap_store(|inner| Box::new(Faulty { inner, faults }));
    handle
}

#[derive(Debug)]
struct Faulty {
    inner: Box<dyn Store>,
    faults: Faults,
}

fn full() -> io::Error {
    io::Error::other("no space left on device (injected)")
}

fn broken() -> io::Error {
    io::Error::other("input/output error (injected)")
}

impl Store for Faulty {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.faults.plan().write_after {
            None => self.inner.append(bytes),
            Some(n) => {
                self.inner.append(&bytes[..n.min(bytes.len())])?;
                Err(full())
            }
        }
    }

    fn sync(&mut self) -> io::Result<()> {
        if self.faults.plan().sync {
            return Err(broken());
        }
        self.inner.sync()
    }

    fn truncate(&mut self, len: u64) -> io::Result<()> {
        if self.faults.plan().truncate {
            return Err(broken());
        }
        self.inner.truncate(len)
    }

    fn write_head(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.faults.plan().head {
            return Err(full());
        }
        self.inner.write_head(bytes)
    }

    fn write_snapshot(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.faults.plan().snapshot {
            return Err(full());
        }
        self.inner.write_snapshot(bytes)
    }
}
