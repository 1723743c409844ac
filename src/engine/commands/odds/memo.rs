//! Resolutions already made, by the dice they drew. A command's resolution is a function of
//! the game (the same in every run: each is taken back), the answers given and the dice drawn,
//! so once the rules have resolved a sequence of dice, another run that draws the same
//! sequence has the same outcome. The [`Memo`] keeps a tree of the dice sequences seen — at
//! each node the die the rules asked for next, at each leaf the outcome — and a run walks it
//! drawing its own dice from its own seed, die for die as the rules would: where the walk
//! reaches a leaf, the outcome is known without running the rules; where it leaves the tree,
//! the rules run with the dice drawn so far and the tree grows.
//!
//! Each leaf is checked once by running the rules again on its dice; an outcome that differs
//! (rules that keep something of their own between runs), or a tree grown past [`MAX_NODES`]
//! (commands that roll buckets of dice rarely draw the same sequence twice), switches the
//! memo off and every run goes through the rules. Either way a run's outcome is what the
//! rules give for its dice, so a seed gives the same counts with the memo or without.

use crate::dice::source::Purpose;
use crate::dice::{DiceBox, DiceSource, DieRequest, Faces};
use crate::odds::RunOutcome;

/// The most nodes a memo grows to before it gives up.
pub const MAX_NODES: usize = 200_000;

enum Node {
    /// Nothing known yet past here.
    Open,
    /// The rules asked for a die of these faces here: the nodes after each value.
    Draw { faces: Faces, next: Vec<(i64, u32)> },
    /// The rules finished here with this outcome (`checked`: seen twice, the same).
    Leaf { outcome: RunOutcome, checked: bool },
}

/// Where a walk ended.
pub enum Walk<'m> {
    /// At an outcome known and checked.
    Known(&'m RunOutcome),
    /// The rules must run, with the dice drawn on the way (in the walk's `path`).
    Run,
}

/// The tree of resolutions seen (see the module's docs).
pub struct Memo {
    nodes: Vec<Node>,
    on: bool,
}

impl Default for Memo {
    fn default() -> Self {
        Memo {
            nodes: vec![Node::Open],
            on: true,
        }
    }
}

/// Draws one die of `faces` from `dice` as the rules' roll would draw it from the generator.
pub fn draw(dice: &mut DiceBox, faces: Faces) -> i64 {
    let request = DieRequest {
        faces,
        pool: "",
        purpose: Purpose::Die { index: 1, of: 1 },
        span: crate::span::Span::point(0),
        context: None,
    };
    dice.source(None)
        .next_die(&request)
        .map_or(faces.min(), |(v, _)| v)
}

impl Memo {
    /// Whether it is in use.
    pub fn on(&self) -> bool {
        self.on
    }

    /// Walks the tree drawing dice from `dice` (seeded for the run), noting each in `path`.
    pub fn walk(&self, dice: &mut DiceBox, path: &mut Vec<(Faces, i64)>) -> Walk<'_> {
        path.clear();
        let mut at = 0usize;
        loop {
            match &self.nodes[at] {
                Node::Open => return Walk::Run,
                Node::Leaf { outcome, checked } => {
                    return if *checked {
                        Walk::Known(outcome)
                    } else {
                        Walk::Run
                    };
                }
                Node::Draw { faces, next } => {
                    let v = draw(dice, *faces);
                    path.push((*faces, v));
                    match next.iter().find(|(x, _)| *x == v) {
                        Some((_, n)) => at = *n as usize,
                        None => return Walk::Run,
                    }
                }
            }
        }
    }

    /// Notes that the rules, drawing `drawn`, gave `outcome`. Switches the memo off when it
    /// disagrees with what was seen before or grows too big.
    pub fn learn(&mut self, drawn: &[(Faces, i64)], outcome: &RunOutcome) {
        if !self.on {
            return;
        }
        let mut at = 0usize;
        for &(f, v) in drawn {
            match &mut self.nodes[at] {
                n @ Node::Open => {
                    *n = Node::Draw {
                        faces: f,
                        next: Vec::new(),
                    }
                }
                Node::Draw { faces, .. } if *faces == f => {}
                _ => return self.off(),
            }
            let found = match &self.nodes[at] {
                Node::Draw { next, .. } => next.iter().find(|(x, _)| *x == v).map(|(_, n)| *n),
                _ => None,
            };
            at = match found {
                Some(n) => n as usize,
                None => {
                    let n = self.nodes.len();
                    self.nodes.push(Node::Open);
                    if let Node::Draw { next, .. } = &mut self.nodes[at] {
                        next.push((v, n as u32));
                    }
                    n
                }
            };
        }
        match &mut self.nodes[at] {
            n @ Node::Open => {
                *n = Node::Leaf {
                    outcome: outcome.clone(),
                    checked: false,
                }
            }
            Node::Leaf {
                outcome: seen,
                checked,
            } if seen == outcome => *checked = true,
            _ => return self.off(),
        }
        if self.nodes.len() > MAX_NODES {
            self.off();
        }
    }

    /// Switches it off: every run goes through the rules.
    pub fn off(&mut self) {
        self.on = false;
        self.nodes = vec![Node::Open];
    }
}
