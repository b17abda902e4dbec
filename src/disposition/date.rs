//! Dates of the `creation-date`, `modification-date` and `read-date` parameters (RFC 2183):
//! RFC 5322 §3.3 date-time in (with the §4.3 obsolete forms), RFC 1123 out.

use core::fmt;

/// A point in time, to the second, in UTC.
///
/// ```
/// use reqparse::disposition::DateTime;
/// let d = DateTime::parse("Wed, 12 Feb 1997 16:29:51 GMT").unwrap();
/// assert_eq!(d.unix_seconds(), 855764991);
/// assert_eq!((d.year(), d.month(), d.day()), (1997, 2, 12));
/// assert_eq!(d.to_string(), "Wed, 12 Feb 1997 16:29:51 GMT");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    unix: i64,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
/// Seconds from 0001-01-01 to 1970-01-01 and from 1970-01-01 to the end of 9999.
const MIN_UNIX: i64 = -62_135_596_800;
const MAX_UNIX: i64 = 253_402_300_799;

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl DateTime {
    /// A UTC date and time; `None` unless it exists (year 1 to 9999, `second` up to 60 for a
    /// leap second, which is folded into the next minute).
    ///
    /// ```
    /// use reqparse::disposition::DateTime;
    /// assert!(DateTime::new(2023, 2, 29, 0, 0, 0).is_none());
    /// assert_eq!(DateTime::new(1970, 1, 1, 0, 0, 1).unwrap().unix_seconds(), 1);
    /// ```
    pub fn new(year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8) -> Option<Self> {
        let (y, m) = (i64::from(year), u32::from(month));
        if !(1..=9999).contains(&y)
            || !(1..=12).contains(&m)
            || day == 0
            || u32::from(day) > days_in_month(y, m)
        {
            return None;
        }
        if hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        let secs = i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
        Self::from_unix_seconds(days_from_civil(y, m, u32::from(day)) * 86_400 + secs)
    }

    /// From seconds since 1970-01-01T00:00:00Z; `None` outside years 1 to 9999.
    ///
    /// ```
    /// use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::from_unix_seconds(0).unwrap().to_string(), "Thu, 01 Jan 1970 00:00:00 GMT");
    /// ```
    pub fn from_unix_seconds(unix: i64) -> Option<Self> {
        (MIN_UNIX..=MAX_UNIX)
            .contains(&unix)
            .then_some(DateTime { unix })
    }

    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    ///
    /// ```
    /// use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::parse("Thu, 01 Jan 1970 00:01:00 +0000").unwrap().unix_seconds(), 60);
    /// ```
    pub fn unix_seconds(&self) -> i64 {
        self.unix
    }

    fn civil(&self) -> (i64, u32, u32) {
        civil_from_days(self.unix.div_euclid(86_400))
    }

    /// The year (1 to 9999).
    ///
    /// ```
    /// # use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::parse("1 Jan 49 00:00 GMT").unwrap().year(), 2049);
    /// ```
    pub fn year(&self) -> u16 {
        self.civil().0 as u16
    }

    /// The month (1 to 12).
    ///
    /// ```
    /// # use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::parse("1 Dec 2000 00:00 GMT").unwrap().month(), 12);
    /// ```
    pub fn month(&self) -> u8 {
        self.civil().1 as u8
    }

    /// The day of the month (1 to 31).
    ///
    /// ```
    /// # use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::parse("31 Dec 2000 00:00 GMT").unwrap().day(), 31);
    /// ```
    pub fn day(&self) -> u8 {
        self.civil().2 as u8
    }

    /// Hour, minute and second.
    ///
    /// ```
    /// # use reqparse::disposition::DateTime;
    /// assert_eq!(DateTime::parse("1 Dec 2000 13:14:15 GMT").unwrap().time(), (13, 14, 15));
    /// ```
    pub fn time(&self) -> (u8, u8, u8) {
        let s = self.unix.rem_euclid(86_400);
        ((s / 3600) as u8, (s / 60 % 60) as u8, (s % 60) as u8)
    }

    /// Parses an RFC 5322 §3.3 `date-time`, which covers RFC 1123's form:
    /// `[ day-of-week "," ] day month year hour ":" minute [ ":" second ] zone`, with the
    /// §4.3 obsolete forms: 2-digit years (00-49 → 20xx, 50-99 → 19xx), 3-digit years
    /// (+1900), the zones `UT`, `GMT`, `EST`...`PDT` and military letters (read as `-0000`).
    /// `UTC` is accepted too. The day-of-week, when given, must match the date.
    ///
    /// ```
    /// use reqparse::disposition::DateTime;
    /// let a = DateTime::parse("Wed, 12 Feb 1997 16:29:51 -0500").unwrap();
    /// let b = DateTime::parse("12 Feb 97 21:29:51 GMT").unwrap();
    /// assert_eq!(a, b);
    /// assert!(DateTime::parse("Thu, 12 Feb 1997 16:29:51 GMT").is_none()); // wrong weekday
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        let mut c = Cursor {
            b: s.as_bytes(),
            i: 0,
        };
        c.ws();
        let mut weekday = None;
        if c.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            let name = c.alpha();
            weekday = Some(
                DAYS.iter()
                    .position(|d| d.as_bytes().eq_ignore_ascii_case(name))?,
            );
            c.ws();
            c.eat(b',')?;
            c.ws();
        }
        let (day, _) = c.digits(1, 2)?;
        c.ws1()?;
        let name = c.alpha();
        let month = MONTHS
            .iter()
            .position(|m| m.as_bytes().eq_ignore_ascii_case(name))?;
        c.ws1()?;
        let (year, ylen) = c.digits(2, 4)?;
        let year = match ylen {
            2 if year < 50 => year + 2000,
            2 => year + 1900,
            3 => year + 1900,
            _ => year,
        };
        c.ws1()?;
        let (hour, _) = c.digits(2, 2)?;
        c.ws();
        c.eat(b':')?;
        c.ws();
        let (minute, _) = c.digits(2, 2)?;
        let before = c.i;
        c.ws();
        let mut second = 0;
        if c.eat(b':').is_some() {
            c.ws();
            second = c.digits(2, 2)?.0;
        } else {
            c.i = before;
        }
        c.ws1()?;
        let offset = c.zone()?;
        c.ws();
        if c.peek().is_some() {
            return None;
        }
        let local = Self::new(
            u16::try_from(year).ok()?,
            month as u8 + 1,
            u8::try_from(day).ok()?,
            u8::try_from(hour).ok()?,
            u8::try_from(minute).ok()?,
            u8::try_from(second).ok()?,
        )?;
        if let Some(w) = weekday {
            // 1970-01-01 was a Thursday (index 3 from Monday).
            let wd = (local.unix.div_euclid(86_400) + 3).rem_euclid(7) as usize;
            if wd != w {
                return None;
            }
        }
        Self::from_unix_seconds(local.unix - offset)
    }
}

struct Cursor<'s> {
    b: &'s [u8],
    i: usize,
}

impl<'s> Cursor<'s> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ws(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - start
    }
    fn ws1(&mut self) -> Option<()> {
        (self.ws() > 0).then_some(())
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek() == Some(c)).then(|| self.i += 1)
    }
    fn alpha(&mut self) -> &'s [u8] {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.i += 1;
        }
        // `start..self.i` is the run of letters just read.
        crate::bytes::slice(self.b, start..self.i)
    }
    fn digits(&mut self, min: usize, max: usize) -> Option<(u32, usize)> {
        let start = self.i;
        let mut v = 0u32;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            if self.i - start == max {
                return None;
            }
            v = v * 10 + u32::from(d - b'0');
            self.i += 1;
        }
        let n = self.i - start;
        (n >= min).then_some((v, n))
    }
    /// The zone's offset east of UTC, in seconds.
    fn zone(&mut self) -> Option<i64> {
        match self.peek()? {
            sign @ (b'+' | b'-') => {
                self.i += 1;
                let (hhmm, n) = self.digits(4, 4)?;
                if n != 4 || hhmm % 100 > 59 {
                    return None;
                }
                let secs = i64::from(hhmm / 100) * 3600 + i64::from(hhmm % 100) * 60;
                Some(if sign == b'-' { -secs } else { secs })
            }
            _ => {
                let z = self.alpha();
                let mut up = [0u8; 3];
                if z.len() > up.len() {
                    return None;
                }
                for (u, c) in up.iter_mut().zip(z) {
                    *u = c.to_ascii_uppercase();
                }
                let hours = match up.get(..z.len())? {
                    b"UT" | b"GMT" | b"UTC" | b"Z" => 0,
                    b"EDT" => -4,
                    b"EST" | b"CDT" => -5,
                    b"CST" | b"MDT" => -6,
                    b"MST" | b"PDT" => -7,
                    b"PST" => -8,
                    // RFC 5322 §4.3: other military zones are treated as -0000.
                    [c] if c.is_ascii_alphabetic() && *c != b'J' => 0,
                    _ => return None,
                };
                Some(hours * 3600)
            }
        }
    }
}

impl DateTime {
    /// `Wed, 12 Feb 1997 16:29:51 GMT` (RFC 1123 / IMF-fixdate) without formatting machinery,
    /// for the builder's exactly sized output and for `Display`.
    pub(super) fn rfc1123(&self) -> [u8; RFC1123_LEN] {
        fn two(n: u32) -> [u8; 2] {
            [b'0' + (n / 10 % 10) as u8, b'0' + (n % 10) as u8]
        }
        let (y, m, d) = self.civil();
        let (hh, mm, ss) = self.time();
        // 1970-01-01 was a Thursday (index 3); both indexes are reduced into range.
        let wd = (self.unix.div_euclid(86_400) + 3).rem_euclid(7) as usize;
        #[allow(clippy::indexing_slicing)] // reduced into the table's range (7 days)
        let day = DAYS[wd % 7].as_bytes();
        #[allow(clippy::indexing_slicing)] // reduced into the table's range (12 months)
        let mon = MONTHS[(m as usize + 11) % 12].as_bytes();
        let y = y as u32; // 1..=9999, checked by every constructor
        let parts: [&[u8]; 14] = [
            day,
            b", ",
            &two(d),
            b" ",
            mon,
            b" ",
            &two(y / 100),
            &two(y % 100),
            b" ",
            &two(u32::from(hh)),
            b":",
            &two(u32::from(mm)),
            b":",
            &two(u32::from(ss)),
        ];
        // The parts fill the first 25 bytes; the template's ` GMT` stays.
        let mut o = *b"Thu, 01 Jan 1970 00:00:00 GMT";
        for (slot, &b) in o.iter_mut().zip(parts.iter().copied().flatten()) {
            *slot = b;
        }
        o
    }
}

impl fmt::Display for DateTime {
    /// RFC 1123 / IMF-fixdate: `Wed, 12 Feb 1997 16:29:51 GMT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::bytes::as_str(&self.rfc1123()))
    }
}

/// Length of the RFC 1123 form (always 29 bytes: years are 4 digits).
pub(super) const RFC1123_LEN: usize = 29;
