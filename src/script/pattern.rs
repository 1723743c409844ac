//! Lua 5.4's pattern matcher (`lstrlib.c`), ported to Rust so that every step it takes is
//! counted: a backtracking pattern (`string.find(("a"):rep(25), ("a*"):rep(25) .. "b")`) is
//! exponential in time while its subject and pattern are tiny, so its cost cannot be judged
//! from its arguments. The matcher calls `tick` every [`TICK`] steps; `tick` charges the
//! steps to the call's budget and fails once the budget, the deadline or Ctrl-C says stop.
//!
//! The behaviour is Lua's, error messages included: character classes are those of the C
//! locale, captures are at most 32, recursion is at most 200 deep ("pattern too complex").

/// Steps between two calls of `tick`.
pub(crate) const TICK: u64 = 1024;

/// Most captures in one pattern (`LUA_MAXCAPTURES`).
const MAX_CAPTURES: usize = 32;

/// Deepest recursion of the matcher (`MAXCCALLS` in `lstrlib.c`).
const MAX_DEPTH: u32 = 200;

/// The length of a capture still open.
const CAP_UNFINISHED: isize = -1;
/// The length of a position capture `()`.
const CAP_POSITION: isize = -2;

/// What the matcher fails with: a malformed pattern (Lua's message), or what `tick` said.
pub(crate) type Result<T> = std::result::Result<T, mlua::Error>;

fn malformed(message: &str) -> mlua::Error {
    mlua::Error::runtime(message)
}

/// One capture of a successful match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Capture {
    /// A substring of the subject, as a byte range.
    Text(usize, usize),
    /// A position capture `()`: the 1-based position.
    Position(usize),
}

/// A matcher over one subject and one pattern (the pattern without a leading `^`: anchoring
/// is the caller's business, as in Lua).
pub(crate) struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    depth: u32,
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    steps: u64,
    tick: &'a mut dyn FnMut(u64) -> Result<()>,
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` over `src`, charging its steps through `tick`.
    pub fn new(src: &'a [u8], pat: &'a [u8], tick: &'a mut dyn FnMut(u64) -> Result<()>) -> Self {
        Matcher {
            src,
            pat,
            depth: MAX_DEPTH,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            steps: 0,
            tick,
        }
    }

    /// Charges the steps not charged yet (call when done).
    pub fn finish(&mut self) -> Result<()> {
        let n = std::mem::take(&mut self.steps);
        if n > 0 { (self.tick)(n) } else { Ok(()) }
    }

    /// Where a match of the whole pattern starting at `s` ends, if there is one; captures are
    /// then available through [`Matcher::captures`].
    pub fn match_at(&mut self, s: usize) -> Result<Option<usize>> {
        self.depth = MAX_DEPTH;
        self.level = 0;
        self.do_match(s, 0)
    }

    /// The captures of the last match from `s` to `e`: the whole match when the pattern has
    /// none and `whole` is set (as `string.match` and `gmatch` give; `string.find` does not).
    pub fn captures(&self, s: usize, e: usize, whole: bool) -> Result<Vec<Capture>> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n).map(|i| self.capture(i, s, e)).collect()
    }

    /// Capture `i` of the last match from `s` to `e` (`%0` and, with no captures, `%1` are
    /// the whole match).
    pub fn capture(&self, i: usize, s: usize, e: usize) -> Result<Capture> {
        if i >= self.level {
            if i != 0 {
                return Err(mlua::Error::runtime(format!(
                    "invalid capture index %{}",
                    i + 1
                )));
            }
            return Ok(Capture::Text(s, e));
        }
        let (init, len) = self.capture[i];
        match len {
            CAP_UNFINISHED => Err(malformed("unfinished capture")),
            CAP_POSITION => Ok(Capture::Position(init + 1)),
            len => Ok(Capture::Text(init, init + len as usize)),
        }
    }

    fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps >= TICK {
            self.steps = 0;
            (self.tick)(TICK)?;
        }
        Ok(())
    }

    /// The pattern byte at `i`, or 0 past its end (the C code reads the terminating NUL).
    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    /// The subject byte at `i`, or 0 past its end.
    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn class_end(&self, p: usize) -> Result<usize> {
        let mut p = p;
        let c = self.p(p);
        p += 1;
        match c {
            b'%' => {
                if p >= self.pat.len() {
                    return Err(malformed("malformed pattern (ends with '%')"));
                }
                Ok(p + 1)
            }
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    if p >= self.pat.len() {
                        return Err(malformed("malformed pattern (missing ']')"));
                    }
                    let c = self.p(p);
                    p += 1;
                    if c == b'%' && p < self.pat.len() {
                        p += 1;
                    }
                    if self.p(p) == b']' {
                        break;
                    }
                }
                Ok(p + 1)
            }
            _ => Ok(p),
        }
    }

    /// Whether `c` is in the set `[…]` from `p` (its `[`) to `ec` (its `]`).
    fn match_bracket_class(&self, c: u8, p: usize, ec: usize) -> bool {
        let mut p = p;
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                break;
            }
            if self.p(p) == b'%' {
                p += 1;
                if match_class(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return sig;
                }
            } else if self.p(p) == c {
                return sig;
            }
        }
        !sig
    }

    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        if s >= self.src.len() {
            return false;
        }
        let c = self.src[s];
        match self.p(p) {
            b'.' => true,
            b'%' => match_class(c, self.p(p + 1)),
            b'[' => self.match_bracket_class(c, p, ep - 1),
            x => x == c,
        }
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>> {
        if p + 1 >= self.pat.len() {
            return Err(malformed("malformed pattern (missing arguments to '%b')"));
        }
        if self.s(s) != self.p(p) {
            return Ok(None);
        }
        let (b, e) = (self.p(p), self.p(p + 1));
        let mut cont = 1;
        let mut s = s;
        loop {
            s += 1;
            if s >= self.src.len() {
                return Ok(None);
            }
            self.step()?;
            let c = self.src[s];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(s + 1));
                }
            } else if c == b {
                cont += 1;
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>> {
        let mut i = 0;
        while self.single_match(s + i, p, ep) {
            self.step()?;
            i += 1;
        }
        loop {
            if let Some(r) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(r));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>> {
        let mut s = s;
        loop {
            if let Some(r) = self.do_match(s, ep + 1)? {
                return Ok(Some(r));
            }
            if self.single_match(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Result<Option<usize>> {
        let level = self.level;
        if level >= MAX_CAPTURES {
            return Err(malformed("too many captures"));
        }
        self.capture[level] = (s, what);
        self.level = level + 1;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.level -= 1;
        }
        Ok(r)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>> {
        let l = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == CAP_UNFINISHED)
            .ok_or_else(|| malformed("invalid pattern capture"))?;
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.capture[l].1 = CAP_UNFINISHED;
        }
        Ok(r)
    }

    fn match_capture(&mut self, s: usize, l: u8) -> Result<Option<usize>> {
        let l = usize::from(l).wrapping_sub(usize::from(b'1'));
        if l >= self.level || self.capture[l].1 == CAP_UNFINISHED {
            return Err(mlua::Error::runtime(format!(
                "invalid capture index %{}",
                l.wrapping_add(1) as isize
            )));
        }
        let (init, len) = self.capture[l];
        // A position capture has no text: C compares with its length cast to a huge size,
        // which never fits.
        let Ok(len) = usize::try_from(len) else {
            return Ok(None);
        };
        // Comparing is work too: a step per 16 bytes.
        for _ in 0..len / 16 {
            self.step()?;
        }
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>> {
        if self.depth == 0 {
            return Err(malformed("pattern too complex"));
        }
        self.depth -= 1;
        let r = self.match_loop(s, p);
        self.depth += 1;
        r
    }

    fn match_loop(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>> {
        loop {
            self.step()?;
            if p == self.pat.len() {
                return Ok(Some(s));
            }
            match self.pat[p] {
                b'(' => {
                    return if self.p(p + 1) == b')' {
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                b'%' if self.p(p + 1) == b'b' => match self.match_balance(s, p + 2)? {
                    Some(next) => {
                        s = next;
                        p += 4;
                    }
                    None => return Ok(None),
                },
                b'%' if self.p(p + 1) == b'f' => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return Err(malformed("missing '[' after '%f' in pattern"));
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.match_bracket_class(previous, p, ep - 1)
                        && self.match_bracket_class(self.s(s), p, ep - 1)
                    {
                        p = ep;
                    } else {
                        return Ok(None);
                    }
                }
                b'%' if self.p(p + 1).is_ascii_digit() => {
                    match self.match_capture(s, self.p(p + 1))? {
                        Some(next) => {
                            s = next;
                            p += 2;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let suffix = self.p(ep);
                    if !self.single_match(s, p, ep) {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        return Ok(None);
                    }
                    match suffix {
                        b'?' => {
                            if let Some(r) = self.do_match(s + 1, ep + 1)? {
                                return Ok(Some(r));
                            }
                            p = ep + 1;
                        }
                        b'+' => return self.max_expand(s + 1, p, ep),
                        b'*' => return self.max_expand(s, p, ep),
                        b'-' => return self.min_expand(s, p, ep),
                        _ => {
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }
}

/// Whether `c` is in the class `%cl` (C locale), or equals `cl` when that is no class letter.
fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace also takes the vertical tab, which Rust's ASCII whitespace does not.
        b's' => c == b' ' || (b'\t'..=b'\r').contains(&c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() { res } else { !res }
}

/// Whether `pat` has none of the characters that make a pattern (so `string.find` can search
/// for it as plain text).
pub(crate) fn no_specials(pat: &[u8]) -> bool {
    !pat.iter().any(|c| b"^$*+?.([%-".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `pat` first matches in `src` (unanchored unless it starts with `^`), with its
    /// captures, as `string.find` finds it; and the steps it took.
    fn find(src: &str, pat: &str) -> (Option<(usize, usize, Vec<Capture>)>, u64) {
        let mut steps = 0;
        let mut tick = |n: u64| {
            steps += n;
            Ok(())
        };
        let (anchor, pat) = match pat.strip_prefix('^') {
            Some(p) => (true, p),
            None => (false, pat),
        };
        let mut m = Matcher::new(src.as_bytes(), pat.as_bytes(), &mut tick);
        let mut found = None;
        for s in 0..=src.len() {
            if let Some(e) = m.match_at(s).unwrap() {
                found = Some((s + 1, e, m.captures(s, e, false).unwrap()));
                break;
            }
            if anchor {
                break;
            }
        }
        m.finish().unwrap();
        (found, steps)
    }

    #[test]
    fn patterns_match_as_in_lua() {
        use Capture::*;
        let f = |s: &str, p: &str| find(s, p).0;
        assert_eq!(f("hello world", "o w"), Some((5, 7, vec![])));
        assert_eq!(f("hello", "l+"), Some((3, 4, vec![])));
        assert_eq!(f("hello", "^h(.-)o$"), Some((1, 5, vec![Text(1, 4)])));
        assert_eq!(
            f("  key = value", "(%w+)%s*=%s*(%w+)"),
            Some((3, 13, vec![Text(2, 5), Text(8, 13)]))
        );
        assert_eq!(
            f("abc", "()b()"),
            Some((2, 2, vec![Position(2), Position(3)]))
        );
        assert_eq!(f("f(a(b)c)d", "%b()"), Some((2, 8, vec![])));
        assert_eq!(f("THE (quick) fox", "%f[%a]%a+"), Some((1, 3, vec![])));
        assert_eq!(
            f("hello hello", "(h%a+) %1"),
            Some((1, 11, vec![Text(0, 5)]))
        );
        assert_eq!(f("x = [[a]]", "[%[%]]+"), Some((5, 6, vec![])));
        assert_eq!(f("a.b", "%."), Some((2, 2, vec![])));
        assert_eq!(f("ab\x0bc", "%s"), Some((3, 3, vec![])));
        assert_eq!(f("aaa", "a-b"), None);
        assert_eq!(f("aaab", "a-b"), Some((1, 4, vec![])));
        assert_eq!(f("color colour", "colou?r"), Some((1, 5, vec![])));
        assert_eq!(
            f("2d6+1", "^(%d*)d(%d+)([+-]?%d*)$"),
            Some((1, 5, vec![Text(0, 1), Text(2, 3), Text(3, 5)]))
        );
        assert_eq!(f("end", "$"), Some((4, 3, vec![])));
        assert_eq!(f("a$b", "$b"), Some((2, 3, vec![])));
    }

    #[test]
    fn malformed_patterns_fail_with_lua_messages() {
        let subject = "a".repeat(300);
        let err = |p: &str| {
            let mut tick = |_| Ok(());
            let mut m = Matcher::new(subject.as_bytes(), p.as_bytes(), &mut tick);
            (0..4)
                .find_map(|s| m.match_at(s).err())
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(err("%").contains("malformed pattern (ends with '%')"));
        assert!(err("[a").contains("malformed pattern (missing ']')"));
        assert!(err("%b").contains("missing arguments to '%b'"));
        assert!(err("%fa").contains("missing '[' after '%f' in pattern"));
        assert!(err("a)").contains("invalid pattern capture"));
        assert!(err("%1").contains("invalid capture index %1"));
        assert!(err(&"(".repeat(33)).contains("too many captures"));
        assert!(err(&"a?".repeat(300)).contains("pattern too complex"));
    }

    #[test]
    fn backtracking_is_counted_step_by_step() {
        let (found, steps) = find(&"a".repeat(12), &format!("{}b", "a*".repeat(12)));
        assert_eq!(found, None);
        let (_, fewer) = find(&"a".repeat(8), &format!("{}b", "a*".repeat(8)));
        assert!(steps > 50 * fewer, "{steps} vs {fewer}");
        // A failing tick stops the matcher at once.
        let mut tick = |_| Err(mlua::Error::runtime("stop"));
        let src = "a".repeat(25);
        let pat = format!("{}b", "a*".repeat(25));
        let mut m = Matcher::new(src.as_bytes(), pat.as_bytes(), &mut tick);
        assert_eq!(
            m.match_at(0).unwrap_err().to_string(),
            "runtime error: stop"
        );
    }
}
