//! A configurable number's range, and the error that names a value outside
//! it. A leaf: the config and the cost model both check their fields with
//! it, and it knows neither.

use std::fmt::Display;

/// A field whose value is outside what it allows: its path in the config
/// (`repair.limits.review_margin`), the value and what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{field} is {value}, allowed: {allowed}")]
pub struct Invalid {
    pub field: String,
    pub value: String,
    pub allowed: String,
}

impl Invalid {
    pub(crate) fn new(field: impl Into<String>, value: impl Display, allowed: impl Into<String>) -> Invalid {
        Invalid { field: field.into(), value: value.to_string(), allowed: allowed.into() }
    }
}

/// A number a range can be checked on.
pub(crate) trait Number: Copy + Display {
    fn value(self) -> f64;
}

impl Number for f32 {
    fn value(self) -> f64 {
        f64::from(self)
    }
}

impl Number for u64 {
    fn value(self) -> f64 {
        self as f64
    }
}

impl Number for usize {
    fn value(self) -> f64 {
        self as f64
    }
}

/// `value` of `field` is within `min..=max` (NaN is not).
pub(crate) fn within<T: Number>(field: &str, value: T, min: T, max: T) -> Result<(), Invalid> {
    if (min.value()..=max.value()).contains(&value.value()) {
        Ok(())
    } else {
        Err(Invalid::new(field, value, format!("{min} to {max}")))
    }
}
