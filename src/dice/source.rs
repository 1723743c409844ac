//! Where dice come from: a seeded random generator, values the umpire types in from the
//! table, or a queue of given values consumed first.
//!
//! Every die records which source produced it, and the queue and entered values are checked
//! against the die before they are accepted: a 7 is never a d6.

use std::collections::VecDeque;
use std::fmt;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::error::{DiceError, DiceErrorKind};
use crate::span::Span;

/// Which source produced a die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// The seeded random generator.
    Rng,
    /// Typed in by the umpire.
    Entered,
    /// Taken from the queue (`dice queue 4 3 5`).
    Queue,
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SourceKind::Rng => "rng",
            SourceKind::Entered => "entered",
            SourceKind::Queue => "queue",
        })
    }
}

/// The faces a die can show. Serialised as the die's name: `"d6"`, `"d100"`, `"dF"`, `"dF.1"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Faces {
    /// 1 to `sides`, each equally likely.
    Numbered {
        /// Number of sides.
        sides: u64,
    },
    /// A fudge die `dF.1`: −1, 0, 0, 0, 0, +1.
    Fudge1,
    /// A fudge die `dF` / `dF.2`: −1, −1, 0, 0, +1, +1.
    Fudge2,
}

impl Faces {
    /// The lowest face.
    pub fn min(self) -> i64 {
        match self {
            Faces::Numbered { .. } => 1,
            Faces::Fudge1 | Faces::Fudge2 => -1,
        }
    }

    /// The highest face.
    pub fn max(self) -> i64 {
        match self {
            Faces::Numbered { sides } => sides as i64,
            Faces::Fudge1 | Faces::Fudge2 => 1,
        }
    }

    /// Whether `v` is a face of this die.
    pub fn contains(self, v: i64) -> bool {
        (self.min()..=self.max()).contains(&v)
    }

    /// How many distinct faces.
    pub fn distinct(self) -> u64 {
        match self {
            Faces::Numbered { sides } => sides,
            Faces::Fudge1 | Faces::Fudge2 => 3,
        }
    }

    /// The probability of face `v` (0 for a value the die cannot show).
    pub fn probability(self, v: i64) -> f64 {
        if !self.contains(v) {
            return 0.0;
        }
        match (self, v) {
            (Faces::Numbered { sides }, _) => 1.0 / sides as f64,
            (Faces::Fudge1, 0) => 4.0 / 6.0,
            (Faces::Fudge1, _) => 1.0 / 6.0,
            (Faces::Fudge2, _) => 1.0 / 3.0,
        }
    }

    /// Every face with its probability, lowest first.
    pub fn outcomes(self) -> impl Iterator<Item = (i64, f64)> {
        (self.min()..=self.max()).map(move |v| (v, self.probability(v)))
    }

    /// A uniform draw from the random generator.
    #[inline(always)]
    fn sample(self, rng: &mut ChaCha8Rng) -> i64 {
        match self {
            Faces::Numbered { sides } => numbered(rng, sides),
            // `1..=6` on a `u8`, drawn from 32 bits: a 1 is −1 and a 6 is +1.
            Faces::Fudge1 => match below_u32(rng, 6) {
                0 => -1,
                5 => 1,
                _ => 0,
            },
            Faces::Fudge2 => below_u64(rng, 3) as i64 - 1,
        }
    }
}

// Uniform draws. These are rand 0.9's `random_range` for an inclusive range, written out so
// that a die costs a handful of instructions instead of going through the generic sampler (its
// range checks and dispatch were most of the cost of a die). They must give exactly the values
// `random_range` gives, or seeded rolls would change: rand draws 64 bits for 64-bit ranges and
// 32 bits for smaller ones, and uses Canon's method (a widening multiply, and a second draw
// only when the first lands in the last `range` values of the 2^64; its bias is below 2^-64).
// A test holds them to `random_range` draw for draw, the second draw included.

/// A die numbered 1 to `sides` (`random_range(1..=sides)` on a `u64`).
#[inline(always)]
fn numbered(rng: &mut impl RngCore, sides: u64) -> i64 {
    // `sides` is at least 1 and at most the cap on sides, far below `i64::MAX`.
    below_u64(rng, sides) as i64 + 1
}

/// A uniform draw from `0..range` using 64 bits per draw; `range` is at least 1.
#[inline(always)]
fn below_u64(rng: &mut impl RngCore, range: u64) -> u64 {
    let wide = u128::from(rng.next_u64()) * u128::from(range);
    let (mut result, low) = ((wide >> 64) as u64, wide as u64);
    if low > range.wrapping_neg() {
        let next = ((u128::from(rng.next_u64()) * u128::from(range)) >> 64) as u64;
        result += u64::from(low.checked_add(next).is_none());
    }
    result
}

/// A uniform draw from `0..range` using 32 bits per draw; `range` is at least 1.
#[inline]
fn below_u32(rng: &mut impl RngCore, range: u32) -> u32 {
    let wide = u64::from(rng.next_u32()) * u64::from(range);
    let (mut result, low) = ((wide >> 32) as u32, wide as u32);
    if low > range.wrapping_neg() {
        let next = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        result += u32::from(low.checked_add(next).is_none());
    }
    result
}

impl fmt::Display for Faces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Faces::Numbered { sides: 100 } => f.write_str("d100"),
            Faces::Numbered { sides } => write!(f, "d{sides}"),
            Faces::Fudge1 => f.write_str("dF.1"),
            Faces::Fudge2 => f.write_str("dF"),
        }
    }
}

impl From<Faces> for String {
    fn from(f: Faces) -> String {
        f.to_string()
    }
}

impl TryFrom<String> for Faces {
    type Error = String;

    fn try_from(s: String) -> Result<Faces, String> {
        match s.as_str() {
            "dF" => Ok(Faces::Fudge2),
            "dF.1" => Ok(Faces::Fudge1),
            _ => s
                .strip_prefix('d')
                .and_then(|n| n.parse().ok())
                .filter(|&n| n >= 1)
                .map(|sides| Faces::Numbered { sides })
                .ok_or_else(|| format!("`{s}` is not a die")),
        }
    }
}

/// One die the roller needs, with enough context to prompt for it by hand.
#[derive(Debug, Clone)]
pub struct DieRequest<'a> {
    /// The die.
    pub faces: Faces,
    /// The pool it belongs to, as written (`4d6kh3`).
    pub pool: &'a str,
    /// Why it is rolled: `die 2 of 4`, `explosion of die 3`, `reroll of die 1`.
    pub purpose: Purpose,
    /// Where the pool is in the expression (for errors).
    pub span: Span,
    /// What the roll is for and who rolls it, when the rules said (`Warriors 7's save ·
    /// Warriors 7 [war7] (britons)`): shown when the umpire is asked for the die.
    pub context: Option<&'a str>,
}

/// Why a die is rolled, shown when the umpire is asked to enter it. Formatted only when
/// shown, so rolling stays allocation-free per die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Die `index` of the `of` dice in the pool.
    Die {
        /// 1-based.
        index: u64,
        /// Pool size.
        of: u64,
    },
    /// A reroll of die `index`.
    Reroll(u64),
    /// An explosion of die `index`.
    Explosion(u64),
    /// A die added (`ra`) for die `index`.
    Added(u64),
    /// A reroll of die `index` because it duplicated an earlier die (`u`).
    Duplicate(u64),
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Purpose::Die { index, of } => write!(f, "die {index} of {of}"),
            Purpose::Reroll(i) => write!(f, "reroll of die {i}"),
            Purpose::Explosion(i) => write!(f, "explosion of die {i}"),
            Purpose::Added(i) => write!(f, "die added for die {i}"),
            Purpose::Duplicate(i) => write!(f, "reroll of duplicate die {i}"),
        }
    }
}

/// The umpire at the table: asked for a die value, or a question the rules put (the REPL
/// prompts; `umpire run` reads the following lines).
pub trait DieEntry {
    /// Asks for one die. `Err` means the umpire cancelled; the roll then fails as a whole.
    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String>;

    /// Asks `question`: one of its choices, or `Ok(None)` when this entry cannot ask (the
    /// default is then taken). `Err` means the umpire cancelled; the command then fails.
    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        let _ = question;
        Ok(None)
    }
}

/// How dice are produced when the queue is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// The seeded random generator.
    Rng,
    /// The umpire types each die.
    Enter,
}

/// Direct draws from a source's seeded generator (see [`DiceSource::generator`]).
pub struct Generator<'a>(&'a mut ChaCha8Rng);

impl Generator<'_> {
    /// One die from the generator: the value [`DiceSource::next_die`] would give for it.
    #[inline]
    pub fn die(&mut self, faces: Faces) -> i64 {
        faces.sample(self.0)
    }

    /// `n` dice in order (the values `n` calls of [`die`](Self::die) give), each made into an
    /// item of `out` by `make`. The kind of die is settled once, before the loop.
    #[inline(always)]
    pub fn dice_into<T>(
        &mut self,
        faces: Faces,
        n: u64,
        out: &mut Vec<T>,
        mut make: impl FnMut(i64) -> T,
    ) {
        match faces {
            Faces::Numbered { sides } => {
                let mut die = self.numbered(sides);
                out.extend((0..n).map(|_| make(die())));
            }
            _ => {
                let mut die = self.faces(faces);
                out.extend((0..n).map(|_| make(die())));
            }
        }
    }

    /// Draws dice numbered 1 to `sides`, one per call: what [`die`](Self::die) gives, without
    /// asking each time what kind of die it is.
    #[inline(always)]
    pub(crate) fn numbered(&mut self, sides: u64) -> impl FnMut() -> i64 + '_ {
        let rng = &mut *self.0;
        #[inline(always)]
        move || numbered(rng, sides)
    }

    /// Draws dice of any kind, one per call: what [`die`](Self::die) gives.
    #[inline(always)]
    pub(crate) fn faces(&mut self, faces: Faces) -> impl FnMut() -> i64 + '_ {
        let rng = &mut *self.0;
        #[inline(always)]
        move || faces.sample(rng)
    }
}

/// A source of dice: the roller asks it for one die at a time.
pub trait DiceSource {
    /// The source's generator, when every die it gives from now on (until it is changed) comes
    /// from that generator, with [`SourceKind::Rng`]: nothing queued, nothing entered by hand.
    /// A roller may then draw through it directly, one die at a time, instead of building a
    /// [`DieRequest`] for each; the values and their order are the same as with
    /// [`next_die`](Self::next_die). The default is `None` (always ask `next_die`).
    fn generator(&mut self) -> Option<Generator<'_>> {
        None
    }

    /// One die value for `request`, and which source produced it.
    fn next_die(&mut self, request: &DieRequest<'_>) -> Result<(i64, SourceKind), DiceError>;

    /// `n` dice of one pool, in order, passed to `out` one by one (die `i` of `n` is
    /// requested as [`Purpose::Die`]). The default asks [`next_die`](Self::next_die) for each;
    /// a source may draw the whole pool at once, as long as the values and their order are
    /// the same.
    fn next_dice(
        &mut self,
        request: &DieRequest<'_>,
        n: u64,
        out: &mut dyn FnMut(i64, SourceKind),
    ) -> Result<(), DiceError> {
        one_by_one(self, request, 1, n, out)
    }

    /// Asks the umpire `question` (see [`DieEntry::ask`]); by default nobody can be asked.
    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        let _ = question;
        Ok(None)
    }
}

/// The dice the session rolls with: a queue, then either the seeded generator or dice entered
/// by hand. Switchable at any moment; the seed is kept so it can be shown and journalled.
#[derive(Debug, Clone)]
pub struct DiceBox {
    seed: u64,
    rng: ChaCha8Rng,
    mode: DiceMode,
    queue: VecDeque<i64>,
}

impl DiceBox {
    /// A dice box whose generator starts from `seed`.
    pub fn seeded(seed: u64) -> Self {
        DiceBox {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            mode: DiceMode::Rng,
            queue: VecDeque::new(),
        }
    }

    /// A dice box with a fresh seed taken from the operating system.
    pub fn from_entropy() -> Self {
        Self::seeded(fresh_seed())
    }

    /// The seed the generator last started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Restarts the generator from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// The current mode.
    pub fn mode(&self) -> DiceMode {
        self.mode
    }

    /// Switches between the generator and entered dice.
    pub fn set_mode(&mut self, mode: DiceMode) {
        self.mode = mode;
    }

    /// Values still queued, in the order they will be used.
    pub fn queued(&self) -> impl Iterator<Item = i64> + '_ {
        self.queue.iter().copied()
    }

    /// Adds values to the end of the queue.
    pub fn enqueue(&mut self, values: impl IntoIterator<Item = i64>) {
        self.queue.extend(values);
    }

    /// Removes the next queued value (the one the next die would take), returning it.
    pub fn drop_next(&mut self) -> Option<i64> {
        self.queue.pop_front()
    }

    /// Empties the queue, returning how many values were dropped.
    pub fn clear_queue(&mut self) -> usize {
        let n = self.queue.len();
        self.queue.clear();
        n
    }

    /// A source that draws from this box, prompting through `entry` in enter mode. Without an
    /// `entry`, enter mode fails with a clear error instead of blocking.
    pub fn source<'a>(&'a mut self, entry: Option<&'a mut dyn DieEntry>) -> BoxSource<'a> {
        BoxSource { dice: self, entry }
    }
}

/// A [`DiceSource`] borrowing a [`DiceBox`] (and a way to prompt) for one command.
pub struct BoxSource<'a> {
    dice: &'a mut DiceBox,
    entry: Option<&'a mut dyn DieEntry>,
}

impl DiceSource for BoxSource<'_> {
    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        match self.entry.as_deref_mut() {
            Some(e) => e.ask(question),
            None => Ok(None),
        }
    }

    fn generator(&mut self) -> Option<Generator<'_>> {
        if self.dice.queue.is_empty() && self.dice.mode == DiceMode::Rng {
            Some(Generator(&mut self.dice.rng))
        } else {
            None
        }
    }

    fn next_dice(
        &mut self,
        request: &DieRequest<'_>,
        n: u64,
        out: &mut dyn FnMut(i64, SourceKind),
    ) -> Result<(), DiceError> {
        let mut index = 1;
        // Queued values first, checked one by one; then, from the generator, the rest of the
        // pool in one tight loop (same values, same order as one at a time).
        while index <= n && !self.dice.queue.is_empty() {
            let req = DieRequest {
                purpose: Purpose::Die { index, of: n },
                ..request.clone()
            };
            let (v, kind) = self.next_die(&req)?;
            out(v, kind);
            index += 1;
        }
        if self.dice.mode == DiceMode::Rng {
            let rng = &mut self.dice.rng;
            for _ in index..=n {
                out(request.faces.sample(rng), SourceKind::Rng);
            }
            return Ok(());
        }
        one_by_one(self, request, index, n, out)
    }

    fn next_die(&mut self, request: &DieRequest<'_>) -> Result<(i64, SourceKind), DiceError> {
        if let Some(&v) = self.dice.queue.front() {
            if !request.faces.contains(v) {
                // Leave the bad value queued (nothing is lost): `dice` shows it, and
                // `dice queue drop` or `dice queue clear` take it away.
                return Err(DiceError::new(
                    DiceErrorKind::ImpossibleQueued {
                        value: v,
                        die: request.faces.to_string(),
                    },
                    request.span,
                ));
            }
            self.dice.queue.pop_front();
            return Ok((v, SourceKind::Queue));
        }
        match self.dice.mode {
            DiceMode::Rng => Ok((request.faces.sample(&mut self.dice.rng), SourceKind::Rng)),
            DiceMode::Enter => {
                let entry = self.entry.as_deref_mut().ok_or_else(|| {
                    DiceError::new(
                        DiceErrorKind::SourceCancelled {
                            reason: "dice are set to be entered by hand but nothing can ask for them here (use `dice mode rng` or `dice queue`)".into(),
                        },
                        request.span,
                    )
                })?;
                let v = entry.enter(request).map_err(|reason| {
                    DiceError::new(DiceErrorKind::SourceCancelled { reason }, request.span)
                })?;
                if !request.faces.contains(v) {
                    return Err(impossible(request, v));
                }
                Ok((v, SourceKind::Entered))
            }
        }
    }
}

/// A source that tells the umpire what its dice are for: every request it passes on carries
/// `context` (see [`DieRequest::context`]). Dice come from `inner` unchanged.
pub struct WithContext<'a> {
    inner: &'a mut dyn DiceSource,
    context: &'a str,
}

impl<'a> WithContext<'a> {
    /// Passes every request to `inner` with `context`.
    pub fn new(inner: &'a mut dyn DiceSource, context: &'a str) -> Self {
        WithContext { inner, context }
    }
}

impl DiceSource for WithContext<'_> {
    fn generator(&mut self) -> Option<Generator<'_>> {
        self.inner.generator()
    }

    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        self.inner.ask(&crate::question::Question {
            context: question.context.or(Some(self.context)),
            ..question.clone()
        })
    }

    fn next_die(&mut self, request: &DieRequest<'_>) -> Result<(i64, SourceKind), DiceError> {
        self.inner.next_die(&DieRequest {
            context: Some(self.context),
            ..request.clone()
        })
    }

    fn next_dice(
        &mut self,
        request: &DieRequest<'_>,
        n: u64,
        out: &mut dyn FnMut(i64, SourceKind),
    ) -> Result<(), DiceError> {
        self.inner.next_dice(
            &DieRequest {
                context: Some(self.context),
                ..request.clone()
            },
            n,
            out,
        )
    }
}

/// The error for a value (queued, entered or recorded) the requested die cannot show.
fn impossible(request: &DieRequest<'_>, v: i64) -> DiceError {
    DiceError::new(
        DiceErrorKind::ImpossibleValue {
            value: v,
            die: request.faces.to_string(),
        },
        request.span,
    )
}

/// Asks `source` for dice `from..=n` of a pool of `n`, one at a time, in order.
fn one_by_one<S: DiceSource + ?Sized>(
    source: &mut S,
    request: &DieRequest<'_>,
    from: u64,
    n: u64,
    out: &mut dyn FnMut(i64, SourceKind),
) -> Result<(), DiceError> {
    for index in from..=n {
        let req = DieRequest {
            purpose: Purpose::Die { index, of: n },
            ..request.clone()
        };
        let (v, kind) = source.next_die(&req)?;
        out(v, kind);
    }
    Ok(())
}

/// A seed from the operating system's randomness, small enough to read out and type back.
pub fn fresh_seed() -> u64 {
    rand::rng().random_range(0..1_000_000_000)
}

/// A source that only replays fixed values, failing when they run out (for replays and tests).
#[derive(Debug, Clone, Default)]
pub struct FixedSource {
    values: VecDeque<i64>,
}

impl FixedSource {
    /// A source that hands out `values` in order.
    pub fn new(values: impl IntoIterator<Item = i64>) -> Self {
        FixedSource {
            values: values.into_iter().collect(),
        }
    }
}

impl DiceSource for FixedSource {
    fn next_die(&mut self, request: &DieRequest<'_>) -> Result<(i64, SourceKind), DiceError> {
        let v = self.values.pop_front().ok_or_else(|| {
            DiceError::new(
                DiceErrorKind::SourceCancelled {
                    reason: "no more recorded dice".into(),
                },
                request.span,
            )
        })?;
        if !request.faces.contains(v) {
            return Err(impossible(request, v));
        }
        Ok((v, SourceKind::Queue))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(faces: Faces) -> DieRequest<'static> {
        DieRequest {
            faces,
            pool: "1d6",
            purpose: Purpose::Die { index: 1, of: 1 },
            span: Span::default(),
            context: None,
        }
    }

    #[test]
    fn queue_is_used_before_the_generator() {
        let mut b = DiceBox::seeded(1);
        b.enqueue([4, 3]);
        let mut s = b.source(None);
        let d6 = Faces::Numbered { sides: 6 };
        assert_eq!(s.next_die(&req(d6)).unwrap(), (4, SourceKind::Queue));
        assert_eq!(s.next_die(&req(d6)).unwrap(), (3, SourceKind::Queue));
        assert_eq!(s.next_die(&req(d6)).unwrap().1, SourceKind::Rng);
    }

    #[test]
    fn impossible_queued_value_is_an_error_and_stays_queued() {
        let mut b = DiceBox::seeded(1);
        b.enqueue([7]);
        let err = b
            .source(None)
            .next_die(&req(Faces::Numbered { sides: 6 }))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the next queued value, 7, is not a face of a d6 (it stays queued)"
        );
        assert!(err.help().unwrap().contains("`dice queue drop`"));
        assert_eq!(b.queued().collect::<Vec<_>>(), vec![7]);
        // Dropping it lets the queue go on.
        b.enqueue([2]);
        assert_eq!(b.drop_next(), Some(7));
        let mut s = b.source(None);
        let d6 = Faces::Numbered { sides: 6 };
        assert_eq!(s.next_die(&req(d6)).unwrap(), (2, SourceKind::Queue));
    }

    #[test]
    fn same_seed_same_dice() {
        let d = Faces::Numbered { sides: 20 };
        let roll = |seed| {
            let mut b = DiceBox::seeded(seed);
            let mut s = b.source(None);
            (0..20)
                .map(|_| s.next_die(&req(d)).unwrap().0)
                .collect::<Vec<_>>()
        };
        assert_eq!(roll(7), roll(7));
        assert_ne!(roll(7), roll(8));
    }

    #[test]
    fn entered_dice_are_checked() {
        struct Typist(Vec<i64>);
        impl DieEntry for Typist {
            fn enter(&mut self, _: &DieRequest<'_>) -> Result<i64, String> {
                self.0.pop().ok_or_else(|| "no input".to_string())
            }
        }
        let mut t = Typist(vec![9, 5]);
        let mut b = DiceBox::seeded(1);
        b.set_mode(DiceMode::Enter);
        let mut s = b.source(Some(&mut t));
        let d6 = Faces::Numbered { sides: 6 };
        assert_eq!(s.next_die(&req(d6)).unwrap(), (5, SourceKind::Entered));
        assert!(s.next_die(&req(d6)).is_err());
    }

    /// A generator replaying given words, counting how many it gave.
    struct Replay {
        words: Vec<u64>,
        used: usize,
    }

    impl Replay {
        fn new(words: &[u64]) -> Self {
            Replay {
                words: words.to_vec(),
                used: 0,
            }
        }
    }

    impl RngCore for Replay {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }

        fn next_u64(&mut self) -> u64 {
            let w = self.words[self.used % self.words.len()];
            self.used += 1;
            w
        }

        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("dice draw whole words")
        }
    }

    proptest::proptest! {
        /// The hand-written draws give what rand's `random_range` gives for the same words,
        /// and take as many words, including when the first word needs a second one (large
        /// ranges make that common).
        #[test]
        fn draws_match_random_range(
            first in proptest::prelude::any::<u64>(),
            second in proptest::prelude::any::<u64>(),
            range in proptest::prop_oneof![1u64..100, 1u64..=u64::MAX],
        ) {
            let words = [first, second, 7];
            let (mut ours, mut theirs) = (Replay::new(&words), Replay::new(&words));
            let want = theirs.random_range(0..=range - 1);
            proptest::prop_assert_eq!(below_u64(&mut ours, range), want);
            proptest::prop_assert_eq!(ours.used, theirs.used);

            let range32 = (range as u32).max(1);
            let (mut ours, mut theirs) = (Replay::new(&words), Replay::new(&words));
            let want = theirs.random_range(0..=range32 - 1);
            proptest::prop_assert_eq!(below_u32(&mut ours, range32), want);
            proptest::prop_assert_eq!(ours.used, theirs.used);
        }
    }

    #[test]
    fn seeded_faces_match_random_range() {
        for seed in 0..20 {
            let mut ours = ChaCha8Rng::seed_from_u64(seed);
            let mut theirs = ChaCha8Rng::seed_from_u64(seed);
            for sides in [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 1000, 10_000_000_000] {
                for _ in 0..50 {
                    let want = theirs.random_range(1..=sides) as i64;
                    assert_eq!(Faces::Numbered { sides }.sample(&mut ours), want);
                }
            }
            for _ in 0..50 {
                let want = match theirs.random_range(1..=6u8) {
                    1 => -1,
                    6 => 1,
                    _ => 0,
                };
                assert_eq!(Faces::Fudge1.sample(&mut ours), want);
                assert_eq!(
                    Faces::Fudge2.sample(&mut ours),
                    theirs.random_range(-1..=1i64)
                );
            }
        }
    }

    #[test]
    fn fudge_faces_have_the_right_odds() {
        let p: f64 = Faces::Fudge1.outcomes().map(|(_, p)| p).sum();
        assert!((p - 1.0).abs() < 1e-12);
        assert_eq!(Faces::Fudge1.probability(0), 4.0 / 6.0);
        assert_eq!(Faces::Fudge2.probability(-1), 1.0 / 3.0);
    }
}
