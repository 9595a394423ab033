//! The value of the PDN `Date` tag, `YYYY.MM.DD` (PDN 3.0; `????.??.??` when unknown), from a day
//! or a time counted from the Unix epoch: one calendar for every front end that dates a game
//! (`crown play`, `crown match`, the server's exports).

/// The `Date` tag of a game whose date is unknown (PDN 3.0: question marks for unknown digits).
pub const UNKNOWN_DATE: &str = "????.??.??";

/// Milliseconds in a day.
const DAY_MS: u64 = 86_400_000;

/// The PDN date `YYYY.MM.DD` of day `days` counted from 1970-01-01 (day 0; negative before it) in
/// the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
pub fn pdn_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..=146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // year of era, 0..=399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1, 0..=365
    let mp = (5 * doy + 2) / 153; // month from March, 0..=11
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The PDN date (UTC) of a time `ms` in milliseconds since the Unix epoch (see [`pdn_date`]).
pub fn pdn_date_of_unix_ms(ms: u64) -> String {
    // u64::MAX / DAY_MS is below 2^38: the day number always fits an i64.
    pdn_date((ms / DAY_MS) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Day numbers and times from Python's datetime: `(date - date(1970, 1, 1)).days` and
    /// `datetime(..., tzinfo=timezone.utc).timestamp() * 1000`.
    #[test]
    fn days_match_the_calendar() {
        assert_eq!(pdn_date(0), "1970.01.01");
        assert_eq!(pdn_date(-1), "1969.12.31");
        assert_eq!(pdn_date(10_956), "1999.12.31");
        assert_eq!(pdn_date(11_016), "2000.02.29");
        assert_eq!(pdn_date(11_017), "2000.03.01");
        assert_eq!(pdn_date(19_782), "2024.02.29");
        assert_eq!(pdn_date(20_786), "2026.11.29");
        // 1900 is no leap year, 2100 neither.
        assert_eq!(pdn_date(-25_509), "1900.02.28");
        assert_eq!(pdn_date(-25_508), "1900.03.01");
        assert_eq!(pdn_date(47_541), "2100.03.01");
        assert_eq!(pdn_date(-719_162), "0001.01.01");
        assert_eq!(pdn_date(2_932_896), "9999.12.31");
    }

    #[test]
    fn times_fall_on_their_utc_day() {
        assert_eq!(pdn_date_of_unix_ms(0), "1970.01.01");
        assert_eq!(pdn_date_of_unix_ms(951_782_400_000), "2000.02.29");
        assert_eq!(pdn_date_of_unix_ms(1_795_953_600_000), "2026.11.29");
        assert_eq!(pdn_date_of_unix_ms(1_795_996_799_999), "2026.11.29");
        assert_eq!(pdn_date_of_unix_ms(1_795_996_800_000), "2026.11.30");
        // The largest time still gives a date, without overflow.
        assert!(pdn_date_of_unix_ms(u64::MAX).len() >= 10);
    }
}
