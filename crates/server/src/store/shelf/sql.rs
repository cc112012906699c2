//! A query put together from filters: its text with `$N` placeholders, and the values
//! they stand for, bound in order. Only values are ever bound; every piece of text
//! comes from this crate (column names, fixed clauses), never from a request.

use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::Any;

#[derive(Clone, Debug)]
enum Arg {
    Int(i64),
    Text(String),
}

#[derive(Clone, Debug, Default)]
pub struct Sql {
    pub text: String,
    args: Vec<Arg>,
}

impl Sql {
    pub fn new(text: &str) -> Sql {
        Sql {
            text: text.to_string(),
            args: Vec::new(),
        }
    }

    /// Appends fixed text.
    pub fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Appends a placeholder for an integer.
    pub fn int(&mut self, v: i64) -> &mut Self {
        self.args.push(Arg::Int(v));
        self.text.push_str(&format!("${}", self.args.len()));
        self
    }

    /// Binds an integer that the fixed text already names as the next `$N`.
    pub fn bind_int(&mut self, v: i64) -> &mut Self {
        self.args.push(Arg::Int(v));
        self
    }

    /// Appends a placeholder for a text.
    pub fn text(&mut self, v: impl Into<String>) -> &mut Self {
        self.args.push(Arg::Text(v.into()));
        self.text.push_str(&format!("${}", self.args.len()));
        self
    }

    /// The query, ready to run.
    pub fn query(&self) -> Query<'_, Any, AnyArguments<'_>> {
        let mut q = sqlx::query(&self.text);
        for a in &self.args {
            q = match a {
                Arg::Int(v) => q.bind(*v),
                Arg::Text(v) => q.bind(v.as_str()),
            };
        }
        q
    }
}

/// `s` as a LIKE pattern matching it anywhere (with `ESCAPE '\'`).
pub fn contains_pattern(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('%');
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}
