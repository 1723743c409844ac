//! The dice notation parser: text to [`DiceExpr`], one nom function per grammar rule.
//!
//! `GRAMMAR.md` at the top of the repository writes the grammar down rule by rule; the
//! functions here carry the same names. Parsing also makes every check that needs no dice:
//! caps on counts and sides, conditions that would explode or reroll for ever, repeated
//! modifiers. Errors point at the offending text and say what was expected.
//!
//! In front of the rules sits a fast path for the commonest requests, sums of pools and whole
//! numbers (`3d6+2`, `4d6kh3`): it reads them without the precedence chain, through the same
//! `dice` rule, and hands anything else to the rules unchanged (see "The fast path" in
//! `GRAMMAR.md`, and `fast_request` below). It builds exactly the tree the rules build; a
//! differential property test holds it to that.

use nom::{
    IResult,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{char, digit1, multispace0},
    combinator::opt,
    error::{ErrorKind, ParseError},
};

use std::borrow::Cow;
use std::sync::Arc;

use super::ast::*;
use super::caps::Caps;
use super::error::{DiceError, DiceErrorKind};
use super::source::Faces;
use crate::span::Span;

type In<'a> = &'a str;

/// A parse failure: where (the remaining input), how long the bad token is, and what.
#[derive(Debug)]
pub struct PError<'a> {
    at: In<'a>,
    len: usize,
    // Boxed: parse results are passed up through every rule, so the error type is kept small.
    kind: Option<Box<DiceErrorKind>>,
    expected: Option<Cow<'static, str>>,
}

impl<'a> PError<'a> {
    fn expected(at: In<'a>, what: impl Into<Cow<'static, str>>) -> Self {
        PError {
            at,
            len: 0,
            kind: None,
            expected: Some(what.into()),
        }
    }

    fn kind(at: In<'a>, len: usize, kind: DiceErrorKind) -> Self {
        PError {
            at,
            len,
            kind: Some(Box::new(kind)),
            expected: None,
        }
    }
}

impl<'a> ParseError<In<'a>> for PError<'a> {
    fn from_error_kind(input: In<'a>, _kind: ErrorKind) -> Self {
        // The caret width is worked out when the error is reported (`len == 0`); most of these
        // errors are only a failed alternative and are thrown away.
        PError {
            at: input,
            len: 0,
            kind: None,
            expected: None,
        }
    }

    fn append(_input: In<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

type PResult<'a, T> = IResult<In<'a>, T, PError<'a>>;

/// A recoverable failure: an `alt` may try another branch.
fn soft<'a, T>(at: In<'a>, what: &'static str) -> PResult<'a, T> {
    Err(nom::Err::Error(PError::expected(at, what)))
}

/// A committed failure: the text is wrong here, stop.
fn hard<'a, T>(at: In<'a>, what: &str) -> PResult<'a, T> {
    Err(nom::Err::Failure(PError::expected(at, what.to_string())))
}

fn fail_with<T>(at: In<'_>, len: usize, kind: DiceErrorKind) -> PResult<'_, T> {
    Err(nom::Err::Failure(PError::kind(at, len, kind)))
}

/// Length of the token at the start of `s`, for the caret: a run of letters or digits, or
/// one character.
fn token_len(s: &str) -> usize {
    let word = s
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .map(char::len_utf8)
        .sum::<usize>();
    if word > 0 {
        word
    } else {
        s.chars().next().map_or(0, char::len_utf8)
    }
}

fn describe(s: &str) -> String {
    if s.is_empty() {
        "end of input".into()
    } else {
        format!("`{}`", &s[..token_len(s)])
    }
}

/// Parses a dice expression with the default [`Caps`].
pub fn parse(input: &str) -> Result<DiceExpr, DiceError> {
    parse_with(input, &Caps::DEFAULT)
}

/// Parses a dice expression, checking it against `limits`.
pub fn parse_with(input: &str, limits: &Caps) -> Result<DiceExpr, DiceError> {
    if input.len() > limits.max_len {
        return Err(DiceError::new(
            DiceErrorKind::TooLong {
                len: input.chars().count(),
                cap: limits.max_len,
            },
            Span::new(limits.max_len, input.len()),
        ));
    }
    check_depth(input, limits.max_depth)?;
    // The fast path never accepts blank text, so the emptiness check can wait.
    if let Some(e) = fast_request(input, limits) {
        return Ok(e);
    }
    parse_nom(input, limits)
}

/// [`parse_with`] without the fast path: the nom rules alone (for the differential tests).
#[cfg(test)]
pub(crate) fn parse_with_nom(input: &str, limits: &Caps) -> Result<DiceExpr, DiceError> {
    if input.len() > limits.max_len {
        // The length check of `parse_with`, which gives its own error.
        return parse_with(input, limits);
    }
    check_depth(input, limits.max_depth)?;
    parse_nom(input, limits)
}

/// The nom parser of record (after the length and depth checks of [`parse_with`]).
fn parse_nom(input: &str, limits: &Caps) -> Result<DiceExpr, DiceError> {
    if input.trim().is_empty() {
        return Err(DiceError::new(
            DiceErrorKind::Empty,
            Span::new(0, input.len()),
        ));
    }
    let to_error = |e: PError<'_>| {
        let start = input.len() - e.at.len();
        let len = if e.len == 0 { token_len(e.at) } else { e.len };
        let span = Span::new(start, start + len);
        let kind = e.kind.map(|k| *k).unwrap_or_else(|| DiceErrorKind::Syntax {
            expected: e
                .expected
                .map_or_else(|| "a number, a die or `(`".into(), Cow::into_owned),
            found: describe(e.at),
        });
        DiceError::new(kind, span)
    };
    match request(input, limits) {
        Ok(("", e)) => Ok(e),
        Ok((rest, _)) => {
            let start = input.len() - rest.len();
            let trimmed = rest.trim_end();
            Err(DiceError::new(
                DiceErrorKind::Trailing {
                    found: format!("`{trimmed}`"),
                },
                Span::new(start, start + trimmed.len()),
            ))
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(to_error(e)),
        Err(nom::Err::Incomplete(_)) => Err(DiceError::new(
            DiceErrorKind::Empty,
            Span::point(input.len()),
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// The fast path. Nearly every request typed at the table is a sum of pools and whole numbers
// (`3d6+2`, `4d6kh3`, `1d20 + 1d4 - 1`). For those the precedence chain above (expr, sum,
// product, unary, power, labeled, atom, each skipping blanks and looking for its operators) is
// most of the cost of parsing. `fast_request` reads exactly that shape,
//
//     fast_request = ws fast_term (ws ("+" | "-") ws fast_term)* ws
//     fast_term    = integer | integer dice_rest | "d" digit dice_rest
//
// and builds the tree the rules above would build, reusing them for each pool (`dice`, so the
// sides, the modifiers and every check are the parser of record's) and for the dice count
// (`dice_count`). On anything else — another operator, a sign, a decimal, a label, a comment,
// a repeat, an error of any kind — it gives up and the nom rules parse the text from the start,
// so errors and every other form come from one place. A differential property test
// (`parser_fast_tests`) holds the two to the same result on generated and arbitrary text and
// on the conformance corpus.

/// Whether `b` is a blank as `multispace0` (the `ws` rule) reads it.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// `s` without leading blanks (the `ws` rule).
fn skip_ws(s: &str) -> &str {
    let n = s.bytes().take_while(|&b| is_ws(b)).count();
    &s[n..]
}

/// Parses the simple forms described above, or `None` to leave the text to the nom rules.
pub(crate) fn fast_request(input: &str, l: &Caps) -> Option<DiceExpr> {
    let i = skip_ws(input);
    let (mut i, mut acc) = fast_term(i, l)?;
    loop {
        i = skip_ws(i);
        let op = match i.as_bytes().first() {
            None => {
                return Some(DiceExpr {
                    repeat: None,
                    expr: acc,
                    comment: None,
                });
            }
            Some(b'+') => BinaryOp::Add,
            Some(b'-') => BinaryOp::Sub,
            Some(_) => return None,
        };
        let (rest, rhs) = fast_term(skip_ws(&i[1..]), l)?;
        acc = Expr::Binary(op, Box::new([acc, rhs]));
        i = rest;
    }
}

/// A whole number or a pool, as `atom` reads them; `None` for any other atom or an error.
fn fast_term<'a>(i: In<'a>, l: &Caps) -> Option<(In<'a>, Expr)> {
    let b = i.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        // A pool without a count: `d20`. Other letters (functions, `dF` and so on) go to nom.
        return match b {
            [b'd' | b'D', c, ..] if c.is_ascii_digit() => {
                fast_dice(i, None, l).or_else(|| dice(i, None, l).ok())
            }
            _ => None,
        };
    }
    let (text, rest) = i.split_at(digits);
    match rest.as_bytes().first() {
        // A decimal (or a malformed count): the nom rules decide.
        Some(b'.') => None,
        Some(b'd' | b'D') => {
            // A bad count is left to the nom rules, which word the error.
            let n = count_value(text, l).ok()?;
            fast_dice(rest, Some(n), l).or_else(|| dice(rest, Some(Count::Number(n)), l).ok())
        }
        // Whole numbers are read as `atom` reads them; longer ones go to nom.
        _ => {
            let n = u32::try_from(digits_value(text)?).ok()?;
            Some((rest, Expr::Num(f64::from(n))))
        }
    }
}

/// A pool with a written count (`n`, already checked) and size and only the everyday
/// modifiers, each at most once and in canonical order: keep/drop the highest or lowest N
/// (`kh3`, `kl1`, `dh1`, `dl1`, `k3`, `d1`), a success count against a whole number (`>=8`,
/// `>3`, `<=2`, `<2`, `=6`), and a plain explosion (`!`). It builds the tree `dice` builds
/// for them; anything else, including every error, is left to `dice` (`None`). `i` starts
/// at the `d`.
fn fast_dice<'a>(i: In<'a>, n: Option<u64>, l: &Caps) -> Option<(In<'a>, Expr)> {
    let b = i.as_bytes();
    let digits = b
        .get(1..)?
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 || (digits > 1 && b[1] == b'0') {
        return None;
    }
    let sides = digits_value(&i[1..=digits]).filter(|&s| s >= 1 && s <= l.max_sides)?;
    let mut rest = &i[1 + digits..];
    let mut mods = Modifiers::new();
    let mut last = 0;
    while let Some(&c) = rest.as_bytes().first() {
        if c == b'.' {
            return None;
        }
        if !starts_modifier(c) {
            break;
        }
        let (r, m) = fast_modifier(rest, l)?;
        // Out of canonical order or repeated: the nom rules sort or refuse them.
        let order = print_order(&m);
        if order < last || (order == last && once_only(&m).is_some()) {
            return None;
        }
        last = order;
        mods.push(m);
        rest = r;
    }
    // A pool that always explodes (`d1!`) is refused by the nom rules.
    if sides == 1 && mods.iter().any(|m| matches!(m, Modifier::Explode { .. })) {
        return None;
    }
    let dice = Dice {
        count: n.map(Count::Number),
        sides: Sides::Number(sides),
        mods,
    };
    Some((rest, Expr::Dice(Arc::new(dice))))
}

/// One everyday modifier for [`fast_dice`], or `None`.
fn fast_modifier<'a>(i: In<'a>, l: &Caps) -> Option<(In<'a>, Modifier)> {
    let b = i.as_bytes();
    let whole = |from: usize| -> Option<(usize, u64)> {
        let len = b
            .get(from..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if len == 0 || len > 9 || b.get(from + len) == Some(&b'.') {
            return None;
        }
        Some((from + len, digits_value(&i[from..from + len])?))
    };
    let (end, m) = match b {
        [kd @ (b'k' | b'd'), rest @ ..] => {
            let kd = if *kd == b'k' {
                KeepDrop::Keep
            } else {
                KeepDrop::Drop
            };
            let (from, highest) = match rest.first() {
                Some(b'h') => (2, true),
                Some(b'l') => (2, false),
                // A bare count keeps the highest or drops the lowest.
                _ => (1, kd == KeepDrop::Keep),
            };
            let (end, n) = whole(from).filter(|&(_, n)| n <= l.max_rolls)?;
            let n = Count::Number(n);
            let sel = if highest {
                Selector::Highest(n)
            } else {
                Selector::Lowest(n)
            };
            (end, Modifier::KeepDrop(kd, sel))
        }
        [b'!', b'!' | b'p' | b'<' | b'>' | b'=' | b'x', ..] => return None,
        [b'!', ..] => (
            1,
            Modifier::Explode {
                kind: ExplodeKind::Standard,
                on: None,
                limit: None,
            },
        ),
        [b'<' | b'>' | b'=', ..] => {
            let (from, op) = match b {
                [b'>', b'=', ..] => (2, CmpOp::Ge),
                [b'<', b'=', ..] => (2, CmpOp::Le),
                [b'<', b'>', ..] | [b'=', b'=', ..] => return None,
                [b'>', ..] => (1, CmpOp::Gt),
                [b'<', ..] => (1, CmpOp::Lt),
                _ => (1, CmpOp::Eq),
            };
            let (end, v) = whole(from)?;
            // A failure count (`f<=1`) is left to the nom rules.
            if b.get(end) == Some(&b'f') {
                return None;
            }
            let success = Compare::new(op, v as f64);
            (
                end,
                Modifier::Target {
                    success,
                    failure: None,
                },
            )
        }
        _ => return None,
    };
    Some((&i[end..], m))
}

/// Refuses input nested deeper than the cap before any recursive parsing starts, so that no
/// input can exhaust the stack.
fn check_depth(input: &str, cap: usize) -> Result<(), DiceError> {
    // Each byte opens at most one level, so text no longer than the cap cannot pass it.
    if input.len() <= cap {
        return Ok(());
    }
    let mut depth = 0usize;
    // Brackets are ASCII, so bytes give the same positions as characters would.
    for (i, c) in input.bytes().enumerate() {
        match c {
            b'(' | b'{' | b'[' => {
                depth += 1;
                if depth > cap {
                    return Err(DiceError::new(
                        DiceErrorKind::TooDeep { cap },
                        Span::new(i, i + 1),
                    ));
                }
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn ws(i: In<'_>) -> PResult<'_, In<'_>> {
    multispace0(i)
}

/// `request = ws [repeat] expr ws [comment] ws`
fn request<'a>(i: In<'a>, limits: &Caps) -> PResult<'a, DiceExpr> {
    let (i, _) = ws(i)?;
    // Only look for a repeat count when the text starts with digits and an `x`.
    let digits = i.bytes().take_while(u8::is_ascii_digit).count();
    let (i, repeat) = if digits > 0 && i[digits..].starts_with(['x', 'X']) {
        opt(|i| repeat(i, limits))(i)?
    } else {
        (i, None)
    };
    let (i, expr) = expr(i, limits)?;
    let (i, _) = ws(i)?;
    let (i, comment) = if i.is_empty() {
        (i, None)
    } else {
        opt(comment)(i)?
    };
    let (i, _) = ws(i)?;
    Ok((
        i,
        DiceExpr {
            repeat,
            expr,
            comment,
        },
    ))
}

/// `repeat = integer "x" ws1` — as in `6x 4d6kh3`.
fn repeat<'a>(i: In<'a>, limits: &Caps) -> PResult<'a, u32> {
    let start = i;
    let (i, n) = digit1(i)?;
    let (i, _) = alt((char('x'), char('X')))(i)?;
    let (i, gap) = take_while1(char::is_whitespace)(i)?;
    let _ = gap;
    match n.parse::<u32>() {
        Ok(v) if (1..=limits.max_repeat).contains(&v) => Ok((i, v)),
        _ => fail_with(
            start,
            n.len(),
            DiceErrorKind::RepeatCount {
                count: n.to_string(),
                cap: limits.max_repeat,
            },
        ),
    }
}

/// `comment = "#" text | "//" text | "/*" text "*/"`
fn comment(i: In<'_>) -> PResult<'_, String> {
    if let Some(rest) = i.strip_prefix("/*") {
        return match rest.find("*/") {
            Some(end) => Ok((&rest[end + 2..], rest[..end].trim().to_string())),
            None => hard(&i[i.len()..], "`*/` to close the comment"),
        };
    }
    let (rest, _) = alt((tag("#"), tag("//")))(i)?;
    Ok(("", rest.trim().to_string()))
}

/// `expr = sum [ws cmp_op ws sum]` — a comparison of totals gives 1 or 0.
fn expr<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (i, lhs) = sum(i, l)?;
    let (after_ws, _) = ws(i)?;
    match cmp_op_total(after_ws) {
        Ok((rest, op)) => {
            let (rest, _) = ws(rest)?;
            let (rest, rhs) = cut_operand(rest, |i| sum(i, l), "a value after the comparison")?;
            Ok((rest, Expr::Binary(BinaryOp::Cmp(op), Box::new([lhs, rhs]))))
        }
        Err(_) => Ok((i, lhs)),
    }
}

/// Comparison operators between totals: `==` (not `=`), `!=`, `<>`, `<=`, `>=`, `<`, `>`.
fn cmp_op_total(i: In<'_>) -> PResult<'_, CmpOp> {
    if !i.starts_with(['<', '>', '=', '!']) {
        return Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Tag)));
    }
    alt((
        |i| tag("==")(i).map(|(i, _)| (i, CmpOp::Eq)),
        cmp_op_relational,
    ))(i)
}

/// The comparison operators other than equality: `!=`, `<>`, `<=`, `>=`, `<`, `>`.
fn cmp_op_relational(i: In<'_>) -> PResult<'_, CmpOp> {
    // Two-character operators before their one-character prefixes.
    let (len, op) = match i.as_bytes() {
        [b'!', b'=', ..] | [b'<', b'>', ..] => (2, CmpOp::Ne),
        [b'<', b'=', ..] => (2, CmpOp::Le),
        [b'>', b'=', ..] => (2, CmpOp::Ge),
        [b'<', ..] => (1, CmpOp::Lt),
        [b'>', ..] => (1, CmpOp::Gt),
        _ => return Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Tag))),
    };
    Ok((&i[len..], op))
}

/// Parses an operand after an operator; if nothing parses, that's a hard error.
fn cut_operand<'a, T>(
    i: In<'a>,
    f: impl FnMut(In<'a>) -> PResult<'a, T>,
    what: &str,
) -> PResult<'a, T> {
    cut_operand_lazy(i, f, || what.to_string())
}

/// [`cut_operand`] with a message built only when it is needed.
fn cut_operand_lazy<'a, T>(
    i: In<'a>,
    mut f: impl FnMut(In<'a>) -> PResult<'a, T>,
    what: impl FnOnce() -> String,
) -> PResult<'a, T> {
    match f(i) {
        Err(nom::Err::Error(e)) => {
            let e = if e.expected.is_some() || e.kind.is_some() {
                e
            } else {
                PError::expected(i, what())
            };
            Err(nom::Err::Failure(e))
        }
        other => other,
    }
}

/// `sum = product (ws ("+" | "-") ws product)*`
fn sum<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (mut i, mut acc) = product(i, l)?;
    loop {
        let (j, _) = ws(i)?;
        let op = match j.chars().next() {
            Some('+') => BinaryOp::Add,
            Some('-') => BinaryOp::Sub,
            _ => return Ok((i, acc)),
        };
        let (j, _) = ws(&j[1..])?;
        let (j, rhs) = cut_operand(j, |i| product(i, l), "a value after the operator")?;
        acc = Expr::Binary(op, Box::new([acc, rhs]));
        i = j;
    }
}

/// `product = unary (ws ("*" | "//" | "/" | "%") ws unary)*`
///
/// `//` followed by something that cannot start a value is a comment, not floor division:
/// `3d6 // fire`.
fn product<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (mut i, mut acc) = unary(i, l)?;
    loop {
        let (j, _) = ws(i)?;
        let (j, op) = if j.starts_with("**") {
            return Ok((i, acc));
        } else if let Some(r) = j.strip_prefix("//") {
            if !starts_value(r.trim_start()) {
                return Ok((i, acc));
            }
            (r, BinaryOp::FloorDiv)
        } else if let Some(r) = j.strip_prefix("/*") {
            let _ = r;
            return Ok((i, acc));
        } else if let Some(r) = j.strip_prefix('*') {
            (r, BinaryOp::Mul)
        } else if let Some(r) = j.strip_prefix('/') {
            (r, BinaryOp::Div)
        } else if let Some(r) = j.strip_prefix('%') {
            (r, BinaryOp::Rem)
        } else {
            return Ok((i, acc));
        };
        let (j, _) = ws(j)?;
        let (j, rhs) = cut_operand(j, |i| unary(i, l), "a value after the operator")?;
        acc = Expr::Binary(op, Box::new([acc, rhs]));
        i = j;
    }
}

/// Whether `s` can begin a value (used to tell `// 2` from `// a comment`).
fn starts_value(s: &str) -> bool {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) if c.is_ascii_digit() || "({.+-".contains(c) => true,
        Some('d' | 'D') => matches!(cs.next(), Some(c) if c.is_ascii_digit() || "%(Ff".contains(c)),
        Some(c) if c.is_ascii_alphabetic() => {
            let word: String = s.chars().take_while(char::is_ascii_alphabetic).collect();
            Func::from_name(&word).is_some()
        }
        _ => false,
    }
}

/// `unary = (("-" | "+") ws)* power` — prefix operators, read in a loop so that long chains
/// cannot exhaust the stack.
fn unary<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let mut ops = Vec::new();
    let mut i = i;
    loop {
        match i.chars().next() {
            Some('-') => ops.push(UnaryOp::Neg),
            Some('+') => ops.push(UnaryOp::Plus),
            _ => break,
        }
        i = ws(&i[1..])?.0;
    }
    let (i, mut e) = if ops.is_empty() {
        power(i, l)?
    } else {
        cut_operand(i, |i| power(i, l), "a value after the sign")?
    };
    for op in ops.into_iter().rev() {
        e = Expr::Unary(op, Box::new(e));
    }
    Ok((i, e))
}

/// `power = labeled [ws ("^" | "**") ws unary]` — right-associative, and binds tighter than a
/// sign on its left: `-2^2` is `-(2^2)`, `2^-1` is `2^(-1)`.
fn power<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (i, base) = labeled(i, l)?;
    let (j, _) = ws(i)?;
    let rest = if let Some(r) = j.strip_prefix("**") {
        r
    } else if let Some(r) = j.strip_prefix('^') {
        r
    } else {
        return Ok((i, base));
    };
    let (rest, _) = ws(rest)?;
    let (rest, exp) = cut_operand(rest, |i| unary(i, l), "an exponent after `^`")?;
    Ok((rest, Expr::Binary(BinaryOp::Pow, Box::new([base, exp]))))
}

/// `labeled = atom (ws label)*`, `label = "[" text "]"`.
fn labeled<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (mut i, mut e) = atom(i, l)?;
    loop {
        let (j, _) = ws(i)?;
        let Some(body) = j.strip_prefix('[') else {
            return Ok((i, e));
        };
        match body.find(']') {
            Some(end) => {
                e = Expr::Labeled(Box::new(e), body[..end].trim().to_string());
                i = &body[end + 1..];
            }
            None => return hard(&body[body.len()..], "`]` to close the label"),
        }
    }
}

/// `atom = call | group | paren_or_set | dice | number`, where a number or parenthesised
/// expression directly followed by `d` is the count of a dice pool.
fn atom<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let Some(c) = i.chars().next() else {
        return hard(i, "a number, a die or `(`");
    };
    match c {
        '{' => group(i, l),
        '(' => {
            let (rest, e) = paren_or_set(i, l)?;
            match e {
                ParenOrSet::Paren(inner) if is_dice_letter(rest) => {
                    dice(rest, Some(Count::Expr(Box::new(inner))), l)
                }
                // `(2d6)kh1`, `(1)k1`: a parenthesised value with keep/drop or sorting is a
                // set of one item.
                ParenOrSet::Paren(inner) if rest.starts_with(['k', 'p', 's']) => {
                    let (rest, mods) = group_modifiers(rest, l)?;
                    Ok((
                        rest,
                        Expr::Group(Arc::new(Group {
                            brackets: Brackets::Parens,
                            items: vec![inner],
                            mods,
                        })),
                    ))
                }
                ParenOrSet::Paren(inner) => Ok((rest, inner)),
                ParenOrSet::Set(items) => {
                    let (rest, mods) = group_modifiers(rest, l)?;
                    Ok((
                        rest,
                        Expr::Group(Arc::new(Group {
                            brackets: Brackets::Parens,
                            items,
                            mods,
                        })),
                    ))
                }
            }
        }
        c if c.is_ascii_digit() || c == '.' => {
            let (rest, text) = number(i)?;
            if is_dice_letter(rest) {
                let count = dice_count(i, text, l)?;
                dice(rest, Some(count), l)
            } else {
                // Whole numbers (nearly all of them) skip the general float parser.
                let v = match text.parse::<u32>() {
                    Ok(n) => f64::from(n),
                    Err(_) => exact_number(i, text)?,
                };
                Ok((rest, Expr::Num(v)))
            }
        }
        'd' | 'D'
            if !i[1..].starts_with(|c: char| c.is_ascii_alphabetic() && !"Ff".contains(c)) =>
        {
            dice(i, None, l)
        }
        c if c.is_ascii_alphabetic() => call(i, l),
        _ => soft(i, "a number, a die or `(`"),
    }
}

/// The value of a run of ASCII digits, `None` if it overflows a `u64` (what `str::parse` gives
/// for such a run, without its generality).
fn digits_value(digits: &str) -> Option<u64> {
    digits.bytes().try_fold(0u64, |acc, b| {
        acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    })
}

/// `digit1`, scanned by hand (counts and sizes are in nearly every pool).
fn digits1(i: In<'_>) -> PResult<'_, &str> {
    let n = i.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return Err(nom::Err::Error(PError::from_error_kind(
            i,
            ErrorKind::Digit,
        )));
    }
    Ok((&i[n..], &i[..n]))
}

fn is_dice_letter(s: &str) -> bool {
    s.starts_with(['d', 'D'])
}

/// `number = digits ["." digits] | "." digits`
fn number(i: In<'_>) -> PResult<'_, &str> {
    // Scanned by hand: numbers are in almost every expression, and this is the hot path.
    let b = i.as_bytes();
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut end = int;
    if b.get(int) == Some(&b'.') {
        let frac = b[int + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if frac > 0 {
            end = int + 1 + frac;
        }
    }
    if end == 0 {
        return Err(nom::Err::Error(PError::from_error_kind(
            i,
            ErrorKind::Digit,
        )));
    }
    Ok((&i[end..], &i[..end]))
}

/// What is wrong with a written dice count.
enum BadCount {
    Decimal,
    LeadingZero,
    Zero,
    TooMany,
}

/// A written dice count's value: a whole number from 1 to the cap, without a leading zero.
/// Shared by the nom rules ([`dice_count`], which words the errors) and the fast path.
fn count_value(text: &str, l: &Caps) -> Result<u64, BadCount> {
    // (A byte loop: counts are a digit or two, too short for `contains` to pay off.)
    if text.bytes().any(|b| b == b'.') {
        return Err(BadCount::Decimal);
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(BadCount::LeadingZero);
    }
    // `text` is digits only here (a decimal point was refused above).
    match digits_value(text) {
        Some(0) => Err(BadCount::Zero),
        Some(n) if n <= l.max_dice => Ok(n),
        _ => Err(BadCount::TooMany),
    }
}

/// A written dice count ([`count_value`]), with the error the parser reports.
fn dice_count<'a>(at: In<'a>, text: &str, l: &Caps) -> Result<Count, nom::Err<PError<'a>>> {
    let fail = |kind| nom::Err::Failure(PError::kind(at, text.len(), kind));
    match count_value(text, l) {
        Ok(n) => Ok(Count::Number(n)),
        Err(BadCount::Decimal) => Err(nom::Err::Failure(PError::expected(
            at,
            "a whole number of dice",
        ))),
        Err(BadCount::LeadingZero) => Err(nom::Err::Failure(PError::expected(
            at,
            "a dice count without a leading zero",
        ))),
        Err(BadCount::Zero) => Err(fail(DiceErrorKind::NoDice { count: "0".into() })),
        Err(BadCount::TooMany) => Err(fail(DiceErrorKind::TooManyDice {
            count: text.into(),
            cap: l.max_dice,
        })),
    }
}

/// `call = name "(" expr ("," expr)* ")"`
fn call<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (rest, name) = take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_')(i)?;
    let Some(rest) = rest.strip_prefix('(') else {
        return if Func::from_name(name).is_some() {
            hard(rest, &format!("`(` after `{name}`"))
        } else {
            soft(i, "a number, a die or `(`")
        };
    };
    let Some(func) = Func::from_name(name) else {
        return fail_with(
            i,
            name.len(),
            DiceErrorKind::UnknownFunction { name: name.into() },
        );
    };
    let (rest, args) = comma_list(rest, ')', l)?;
    let (min, max) = func.arity();
    if args.len() < min || max.is_some_and(|m| args.len() > m) {
        let expected = match (min, max) {
            (1, Some(1)) => "one argument".to_string(),
            (n, Some(m)) if n == m => format!("{n} arguments"),
            (n, _) => format!("at least {n} arguments"),
        };
        return fail_with(
            i,
            i.len() - rest.len(),
            DiceErrorKind::Arity {
                name: func.name(),
                expected,
                found: args.len(),
            },
        );
    }
    Ok((rest, Expr::Call(func, args)))
}

/// Items separated by commas up to `close`; returns the items and whether a trailing comma
/// was written.
fn comma_list_inner<'a>(i: In<'a>, close: char, l: &Caps) -> PResult<'a, (Vec<Expr>, bool)> {
    let mut items = Vec::new();
    let (mut i, _) = ws(i)?;
    if let Some(rest) = i.strip_prefix(close) {
        return Ok((rest, (items, false)));
    }
    loop {
        let (j, e) = cut_operand(i, |i| expr(i, l), "a value")?;
        items.push(e);
        let (j, _) = ws(j)?;
        if let Some(rest) = j.strip_prefix(close) {
            return Ok((rest, (items, false)));
        }
        let Some(rest) = j.strip_prefix(',') else {
            return hard(j, &format!("`,` or `{close}`"));
        };
        let (rest, _) = ws(rest)?;
        if let Some(rest) = rest.strip_prefix(close) {
            return Ok((rest, (items, true)));
        }
        i = rest;
    }
}

fn comma_list<'a>(i: In<'a>, close: char, l: &Caps) -> PResult<'a, Vec<Expr>> {
    let (i, (items, _)) = comma_list_inner(i, close, l)?;
    Ok((i, items))
}

enum ParenOrSet {
    Paren(Expr),
    Set(Vec<Expr>),
}

/// `paren_or_set = "(" expr ")" | "(" expr "," [expr ("," expr)* [","]] ")"`
fn paren_or_set<'a>(i: In<'a>, l: &Caps) -> PResult<'a, ParenOrSet> {
    let (rest, (mut items, trailing_comma)) = comma_list_inner(&i[1..], ')', l)?;
    match items.len() {
        0 => hard(&i[1..], "a value inside `( )`"),
        1 if !trailing_comma => Ok((rest, ParenOrSet::Paren(items.remove(0)))),
        _ => Ok((rest, ParenOrSet::Set(items))),
    }
}

/// `group = "{" expr ("," expr)* "}" group_modifier*`
fn group<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Expr> {
    let (rest, items) = comma_list(&i[1..], '}', l)?;
    if items.is_empty() {
        return hard(&i[1..], "a value inside `{ }`");
    }
    let (rest, mods) = group_modifiers(rest, l)?;
    Ok((
        rest,
        Expr::Group(Arc::new(Group {
            brackets: Brackets::Braces,
            items,
            mods,
        })),
    ))
}

/// Modifiers allowed on a group: keep/drop, success and failure counting, sorting.
fn group_modifiers<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Modifiers> {
    let mut mods = Modifiers::new();
    let mut spots = Spots::new();
    let (i, ()) = modifiers(i, l, &mut mods, &mut spots)?;
    for (m, &(at, len)) in mods.iter().zip(&spots) {
        if !matches!(
            m,
            Modifier::KeepDrop(..) | Modifier::Target { .. } | Modifier::Sort(_)
        ) {
            return fail_with(
                at,
                len,
                DiceErrorKind::MisplacedModifier {
                    modifier: at[..len].into(),
                    on: "a group (only keep/drop, success counting and sorting apply)",
                },
            );
        }
    }
    Ok((i, mods))
}

/// Where each modifier of a pool was written (its text from there, and its length), in the
/// order of the modifiers, for errors.
type Spots<'a> = smallvec::SmallVec<[(In<'a>, usize); 2]>;

/// Whether a modifier can start with byte `b` (every other byte ends the modifiers at once).
fn starts_modifier(b: u8) -> bool {
    // The first bytes `modifier` dispatches on: `! < = > c d e f k m p r s u`.
    matches!(b, b'!' | b'<'..=b'>' | b'c'..=b'f' | b'k' | b'm' | b'p' | b'r'..=b's' | b'u')
}

/// `modifier*`, refusing a second modifier of a kind that can only appear once. The
/// modifiers are put in `mods` in canonical order, and where each was written in `spots`.
fn modifiers<'a>(
    mut i: In<'a>,
    l: &Caps,
    mods: &mut Modifiers,
    spots: &mut Spots<'a>,
) -> PResult<'a, ()> {
    // Most pools have no modifier: leave at once when the next byte cannot start one.
    while i.as_bytes().first().is_some_and(|&b| starts_modifier(b)) {
        let (rest, Some(m)) = opt(|i| modifier(i, l))(i)? else {
            break;
        };
        let len = i.len() - rest.len();
        if let Some(what) = once_only(&m)
            && let Some(k) = mods.iter().position(|o| once_only(o) == Some(what))
        {
            let (first, flen) = spots[k];
            return fail_with(
                i,
                len,
                DiceErrorKind::DuplicateModifier {
                    first: first[..flen].into(),
                    second: i[..len].into(),
                    what,
                },
            );
        }
        mods.push(m);
        spots.push((i, len));
        i = rest;
    }
    // Modifiers act in fixed stages whatever order they are written in, so the tree keeps
    // them in one canonical order; that is also the order they print in, chosen so that no
    // modifier's optional compare point can swallow the next one (`3d6u!=6` would read back
    // as "unique unless 6"; it prints as `3d6!=6u`). The sort is stable: keep/drop selectors
    // keep their written order.
    if !mods.is_sorted_by_key(print_order) {
        let mut both: smallvec::SmallVec<[(Modifier, (In<'a>, usize)); 4]> =
            mods.drain(..).zip(spots.drain(..)).collect();
        both.sort_by_key(|(m, _)| print_order(m));
        for (m, spot) in both {
            mods.push(m);
            spots.push(spot);
        }
    }
    Ok((i, ()))
}

/// Where a modifier goes in the canonical order (keep/drop selectors keep their written order).
fn print_order(m: &Modifier) -> u8 {
    match m {
        Modifier::Min(_) => 0,
        Modifier::Max(_) => 1,
        Modifier::KeepDrop(..) => 2,
        Modifier::Target { .. } => 3,
        Modifier::CritSuccess(_) => 4,
        Modifier::CritFailure(_) => 5,
        Modifier::Explode { .. } => 6,
        Modifier::Reroll { .. } => 7,
        Modifier::Unique { .. } => 8,
        Modifier::Sort(_) => 9,
    }
}

/// The kind of a modifier that may appear only once in a pool, named for errors.
fn once_only(m: &Modifier) -> Option<&'static str> {
    Some(match m {
        Modifier::Min(_) => "`min` clamp",
        Modifier::Max(_) => "`max` clamp",
        Modifier::Explode { .. } => "explode modifier",
        Modifier::Reroll { .. } => "reroll modifier",
        Modifier::Unique { .. } => "unique modifier",
        Modifier::Target { .. } => "success count",
        Modifier::CritSuccess(_) => "critical-success marker",
        Modifier::CritFailure(_) => "critical-failure marker",
        Modifier::Sort(_) => "sort",
        Modifier::KeepDrop(..) => return None,
    })
}

/// The faces of a die whose size is written (not computed).
pub(crate) fn static_faces(sides: &Sides) -> Option<Faces> {
    match sides {
        Sides::Number(n) => Some(Faces::Numbered { sides: *n }),
        Sides::Percent => Some(Faces::Numbered { sides: 100 }),
        Sides::Fudge(FudgeKind::One) => Some(Faces::Fudge1),
        Sides::Fudge(FudgeKind::Two) => Some(Faces::Fudge2),
        Sides::Expr(_) => None,
    }
}

/// `dice = [count] ("d" | "D") sides modifier*`
fn dice<'a>(i: In<'a>, count: Option<Count>, l: &Caps) -> PResult<'a, Expr> {
    let Some(i) = i.strip_prefix(['d', 'D']) else {
        return Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Char)));
    };
    let (i, sides) = sides(i, l)?;
    let mut mods = Modifiers::new();
    let mut spots = Spots::new();
    let (i, ()) = modifiers(i, l, &mut mods, &mut spots)?;
    if !mods.is_empty()
        && let Some(faces) = static_faces(&sides)
    {
        let count_n = match &count {
            None => Some(1),
            Some(Count::Number(n)) => Some(*n),
            Some(Count::Expr(_)) => None,
        };
        for (m, &(at, len)) in mods.iter().zip(&spots) {
            if let Some(kind) = check_modifier(m, faces, count_n, &at[..len]) {
                return fail_with(at, len, kind);
            }
        }
    }
    Ok((i, Expr::Dice(Arc::new(Dice { count, sides, mods }))))
}

/// Checks a modifier that needs the die's faces: never-ending explosions and rerolls,
/// impossible uniqueness. Returns the error, if any.
pub(crate) fn check_modifier(
    m: &Modifier,
    faces: Faces,
    count: Option<u64>,
    text: &str,
) -> Option<DiceErrorKind> {
    // The faces are the whole numbers from `min` to `max`: checked as a range, not one by one
    // (a die may have ten billion faces).
    let (min, max) = (faces.min(), faces.max());
    let every_face = |c: &Option<Compare>, default: i64| match c {
        Some(c) => c.whole().holds_for_all(min, max),
        None => min == default && max == default,
    };
    match m {
        Modifier::Explode {
            on, limit: None, ..
        } if every_face(on, faces.max()) => Some(DiceErrorKind::AlwaysExplodes {
            modifier: text.into(),
            die: faces.to_string(),
        }),
        Modifier::Reroll {
            kind: RerollKind::Until,
            on,
        } if every_face(on, faces.min()) => Some(DiceErrorKind::AlwaysRerolls {
            modifier: text.into(),
            die: faces.to_string(),
        }),
        Modifier::Unique { once: false, on } => {
            let all_must_differ = on.is_none_or(|c| c.whole().holds_for_all(min, max));
            match count {
                Some(n) if all_must_differ && n > faces.distinct() => {
                    Some(DiceErrorKind::ImpossibleUnique {
                        count: n,
                        die: faces.to_string(),
                    })
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `sides = integer | "%" | ("F" | "f") ["." digit] | "(" expr ")"`
fn sides<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Sides> {
    let Some(c) = i.chars().next() else {
        return hard(i, "die size after `d`");
    };
    match c {
        '%' => Ok((&i[1..], Sides::Percent)),
        'F' | 'f' => {
            let rest = &i[1..];
            if let Some(v) = rest.strip_prefix('.') {
                let (after, digits) = take_while(|c: char| c.is_ascii_digit())(v)?;
                match digits {
                    "1" => Ok((after, Sides::Fudge(FudgeKind::One))),
                    "2" => Ok((after, Sides::Fudge(FudgeKind::Two))),
                    _ => {
                        let (_, word) = take_while(|c: char| c.is_ascii_alphanumeric())(v)?;
                        fail_with(
                            i,
                            2 + word.len(),
                            DiceErrorKind::BadFudge { found: word.into() },
                        )
                    }
                }
            } else {
                Ok((rest, Sides::Fudge(FudgeKind::Two)))
            }
        }
        '(' => {
            let (rest, e) = paren_or_set(i, l)?;
            match e {
                ParenOrSet::Paren(e) => Ok((rest, Sides::Expr(Box::new(e)))),
                ParenOrSet::Set(_) => hard(i, "die size after `d` (a set cannot be a die size)"),
            }
        }
        c if c.is_ascii_digit() => {
            let (rest, digits) = digits1(i)?;
            if digits.len() > 1 && digits.starts_with('0') {
                return hard(i, "die size without a leading zero");
            }
            if rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
                return hard(i, "a whole number of sides");
            }
            match digits_value(digits) {
                Some(0) => fail_with(
                    i,
                    digits.len(),
                    DiceErrorKind::NoSides { sides: "0".into() },
                ),
                Some(n) if n <= l.max_sides => Ok((rest, Sides::Number(n))),
                _ => fail_with(
                    i,
                    digits.len(),
                    DiceErrorKind::TooManySides {
                        sides: digits.into(),
                        cap: l.max_sides,
                    },
                ),
            }
        }
        _ => hard(i, "die size after `d`"),
    }
}

/// `compare = cmp_op signed_number`, where `=` is equality.
fn compare(i: In<'_>) -> PResult<'_, Compare> {
    if !i.starts_with(['<', '>', '=', '!']) {
        return Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Tag)));
    }
    let (rest, op) = alt((cmp_op_relational, |i| {
        char('=')(i).map(|(i, _)| (i, CmpOp::Eq))
    }))(i)?;
    let (rest, v) = cut_operand(rest, signed_number, "a number after the comparison")?;
    Ok((rest, Compare::new(op, v)))
}

/// A number written with more digits than the fast path reads, refused when it is beyond the
/// numbers kept exact (±2^53) instead of being silently rounded.
fn exact_number<'a>(at: In<'a>, text: &str) -> Result<f64, nom::Err<PError<'a>>> {
    let v: f64 = text
        .parse()
        .map_err(|_| nom::Err::Failure(PError::expected(at, "a number")))?;
    // Whole numbers are compared as written: 2^53 + 1 reads as 2^53 in a float.
    let whole_too_big = text.bytes().all(|b| b.is_ascii_digit())
        && text
            .parse::<u64>()
            .map_or(true, |n| n > Caps::DEFAULT.max_magnitude as u64);
    if whole_too_big || v.abs() > Caps::DEFAULT.max_magnitude {
        return Err(nom::Err::Failure(PError::kind(
            at,
            text.len(),
            DiceErrorKind::OutOfRange {
                what: "the number",
                value: text.to_string(),
            },
        )));
    }
    Ok(v)
}

/// `signed_number = ["-"] number`
fn signed_number(i: In<'_>) -> PResult<'_, f64> {
    // `recognize(preceded(opt(char('-')), number))`, by hand.
    let sign = usize::from(i.starts_with('-'));
    let (rest, digits) = number(&i[sign..])?;
    let text = &i[..i.len() - rest.len()];
    // Whole numbers of up to nine digits (nearly all of them) skip the general float parser;
    // the value is the same. (`-0` is left to it: it reads as negative zero.)
    if digits.len() <= 9
        && digits.bytes().all(|b| b.is_ascii_digit())
        && let Some(n) = digits_value(digits)
        && (n != 0 || sign == 0)
    {
        let v = n as f64;
        return Ok((rest, if sign == 1 { -v } else { v }));
    }
    match text.parse::<f64>() {
        Ok(v) => Ok((rest, v)),
        Err(_) => hard(i, "a number"),
    }
}

/// A compare point, or a bare number meaning `=N` (as in `r1`, `e6`).
fn compare_or_literal(i: In<'_>) -> PResult<'_, Compare> {
    alt((compare, |i| {
        signed_number(i).map(|(r, v)| (r, Compare::new(CmpOp::Eq, v)))
    }))(i)
}

/// A whole number for a clamp (`min3`, `max-12`).
fn clamp_value<'a>(i: In<'a>, name: &str) -> PResult<'a, i64> {
    let (rest, v) = cut_operand(
        i,
        signed_number,
        if name == "min" {
            "a number after `min`"
        } else {
            "a number after `max`"
        },
    )?;
    if v.fract() != 0.0 || v.abs() > 1e15 {
        return fail_with(
            i,
            i.len() - rest.len(),
            DiceErrorKind::Syntax {
                expected: format!("a whole number after `{name}`"),
                found: format!("`{}`", fmt_num(v)),
            },
        );
    }
    Ok((rest, v as i64))
}

/// A keep/drop count: a whole number or a parenthesised expression.
fn count<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Count> {
    if i.starts_with('(') {
        let (rest, e) = paren_or_set(i, l)?;
        return match e {
            ParenOrSet::Paren(e) => Ok((rest, Count::Expr(Box::new(e)))),
            ParenOrSet::Set(_) => hard(i, "a count (a set cannot be a count)"),
        };
    }
    let (rest, digits) = digits1(i)?;
    match digits_value(digits) {
        Some(n) if n <= l.max_rolls => Ok((rest, Count::Number(n))),
        _ => fail_with(
            i,
            digits.len(),
            DiceErrorKind::TooManyDice {
                count: digits.into(),
                cap: l.max_rolls,
            },
        ),
    }
}

/// One modifier after a pool or group (see GRAMMAR.md for the list).
fn modifier<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Modifier> {
    // Dispatch on the first byte: most pools end at once, and each letter starts one kind.
    let Some(&first) = i.as_bytes().first() else {
        return Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Tag)));
    };
    // Every byte matched below is ASCII, so `rest` is only used after a one-byte character.
    let rest = i.get(1..).unwrap_or_default();
    match first {
        // Longest spellings first: `min` before `mi`.
        b'm' => {
            if let Some(r) = i.strip_prefix("min").or_else(|| i.strip_prefix("mi")) {
                let (r, v) = clamp_value(r, "min")?;
                return Ok((r, Modifier::Min(v)));
            }
            if let Some(r) = i.strip_prefix("max").or_else(|| i.strip_prefix("ma")) {
                let (r, v) = clamp_value(r, "max")?;
                return Ok((r, Modifier::Max(v)));
            }
            soft(i, "a modifier")
        }
        // Right after a pool `!` always explodes: `!=6` explodes on a six (write `<>6` to count
        // dice other than six as successes). `!!p` before `!!` before `!`.
        b'!' => {
            let (r, kind) = if let Some(r) = i.strip_prefix("!!p") {
                (r, ExplodeKind::CompoundPenetrate)
            } else if let Some(r) = i.strip_prefix("!!") {
                (r, ExplodeKind::Compound)
            } else if let Some(r) = i.strip_prefix("!p") {
                (r, ExplodeKind::Penetrate)
            } else {
                (rest, ExplodeKind::Standard)
            };
            let (r, on) = opt(compare)(r)?;
            let (r, limit) = explode_limit(r, l)?;
            Ok((r, Modifier::Explode { kind, on, limit }))
        }
        b'e' => {
            let (r, on) = cut_operand(rest, compare_or_literal, "a face or comparison after `e`")?;
            let (r, limit) = explode_limit(r, l)?;
            Ok((
                r,
                Modifier::Explode {
                    kind: ExplodeKind::Standard,
                    on: Some(on),
                    limit,
                },
            ))
        }
        b'r' => {
            let r = rest;
            let (r, kind) = if let Some(r) = r.strip_prefix('o') {
                (r, RerollKind::Once)
            } else if let Some(r) = r.strip_prefix('a') {
                (r, RerollKind::Add)
            } else if let Some(r) = r.strip_prefix('r') {
                (r, RerollKind::Until)
            } else {
                (r, RerollKind::Until)
            };
            let (r, on) = opt(compare_or_literal)(r)?;
            Ok((r, Modifier::Reroll { kind, on }))
        }
        b'u' => {
            let (r, once) = match rest.strip_prefix('o') {
                Some(r) => (r, true),
                None => (rest, false),
            };
            let (r, on) = opt(compare)(r)?;
            Ok((r, Modifier::Unique { once, on }))
        }
        b'c' => {
            if let Some(r) = i.strip_prefix("cs") {
                let (r, c) = cut_operand(
                    r,
                    compare_or_literal,
                    "a comparison after `cs`, as in `cs>=19`",
                )?;
                return Ok((r, Modifier::CritSuccess(c)));
            }
            if let Some(r) = i.strip_prefix("cf") {
                let (r, c) = cut_operand(
                    r,
                    compare_or_literal,
                    "a comparison after `cf`, as in `cf<=1`",
                )?;
                return Ok((r, Modifier::CritFailure(c)));
            }
            soft(i, "a modifier")
        }
        b's' => Ok(if let Some(r) = rest.strip_prefix('a') {
            (r, Modifier::Sort(SortOrder::Ascending))
        } else if let Some(r) = rest.strip_prefix('d') {
            (r, Modifier::Sort(SortOrder::Descending))
        } else {
            (rest, Modifier::Sort(SortOrder::Ascending))
        }),
        b'k' => keep_drop(rest, KeepDrop::Keep, "k", l),
        b'd' | b'p' => keep_drop(rest, KeepDrop::Drop, &i[..1], l),
        b'f' => hard(
            i,
            "a success comparison before `f` (failures are counted after successes, as in `>=8f<=1`)",
        ),
        b'<' | b'>' | b'=' => {
            let (r, success) = compare(i)?;
            let (r, failure) = match r.strip_prefix('f') {
                Some(fr) => {
                    let (fr, c) = cut_operand(fr, compare, "a comparison after `f`, as in `f<=1`")?;
                    (fr, Some(c))
                }
                None => (r, None),
            };
            Ok((r, Modifier::Target { success, failure }))
        }
        // Most pools end here: leave quickly when nothing can start a modifier.
        _ => Err(nom::Err::Error(PError::from_error_kind(i, ErrorKind::Tag))),
    }
}

/// `explode_limit = ["x" integer]`
fn explode_limit<'a>(i: In<'a>, l: &Caps) -> PResult<'a, Option<u32>> {
    let Some(r) = i.strip_prefix('x') else {
        return Ok((i, None));
    };
    let (rest, digits) = cut_operand(r, digit1, "the most times a die may explode, as in `!x3`")?;
    match digits.parse::<u32>() {
        Ok(0) => hard(r, "an explosion limit of at least 1"),
        Ok(n) if n <= l.max_explosions => Ok((rest, Some(n))),
        _ => fail_with(
            r,
            digits.len(),
            DiceErrorKind::ExplodeLimit {
                limit: digits.parse().unwrap_or(u64::MAX),
                cap: l.max_explosions,
            },
        ),
    }
}

/// `keep_drop = ("k" | "d" | "p") ("h" count | "l" count | compare | count)`: a bare count
/// keeps the highest or drops the lowest.
fn keep_drop<'a>(i: In<'a>, kd: KeepDrop, letter: &str, l: &Caps) -> PResult<'a, Modifier> {
    let selector = |r: In<'a>| -> PResult<'a, Selector> {
        if let Some(r) = r.strip_prefix('h') {
            let (r, n) = cut_operand_lazy(
                r,
                |i| count(i, l),
                || format!("how many after `{letter}h`, as in `{letter}h1`"),
            )?;
            return Ok((r, Selector::Highest(n)));
        }
        if let Some(r) = r.strip_prefix('l') {
            let (r, n) = cut_operand_lazy(
                r,
                |i| count(i, l),
                || format!("how many after `{letter}l`, as in `{letter}l1`"),
            )?;
            return Ok((r, Selector::Lowest(n)));
        }
        if let Ok((r, c)) = compare(r) {
            return Ok((r, Selector::Matching(c)));
        }
        let (r, n) = cut_operand_lazy(
            r,
            |i| count(i, l),
            || format!("how many after `{letter}`, as in `{letter}1`"),
        )?;
        Ok((
            r,
            if kd == KeepDrop::Keep {
                Selector::Highest(n)
            } else {
                Selector::Lowest(n)
            },
        ))
    };
    let (r, s) = selector(i)?;
    Ok((r, Modifier::KeepDrop(kd, s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast pool reader takes the everyday pools itself (the differential tests in
    /// `parser_fast_tests` hold what it builds to the nom rules) and leaves the rest.
    #[test]
    fn fast_dice_takes_everyday_pools_only() {
        let l = Caps::DEFAULT;
        for text in [
            "d6", "d20kl1", "d6kh3", "d6!", "d10>=8", "d6kh3dl1", "d6k2>=5!", "d6=",
        ] {
            let taken = fast_dice(text, Some(4), &l);
            assert_eq!(taken.is_some(), text != "d6=", "{text}");
        }
        for text in [
            "d6!kh3", "d1!", "d6>=8f1", "d6>=5>=4", "d6!!", "d06", "d6.5", "dF",
        ] {
            assert!(fast_dice(text, Some(4), &l).is_none(), "{text}");
        }
    }

    /// `modifiers` skips `modifier` when `starts_modifier` says no: that must only happen
    /// where `modifier` would find nothing either.
    #[test]
    fn starts_modifier_covers_every_modifier() {
        for b in 0..=u8::MAX {
            if starts_modifier(b) {
                continue;
            }
            for rest in ["", "1", "=1", ">=2", "h1", "a", "in1", "ax1", "s>1", "o"] {
                let text = format!("{}{rest}", char::from(b));
                assert!(
                    matches!(modifier(&text, &Caps::DEFAULT), Err(nom::Err::Error(_))),
                    "{text:?} starts a modifier"
                );
            }
        }
    }
}
