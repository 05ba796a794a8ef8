//! Discord's OpenAPI description (the subset in tests/data/discord/) and a small JSON-schema
//! checker for the keywords that subset uses: `$ref`, `type`, `enum`, `const`, `properties`,
//! `required`, `additionalProperties`, `items`, `minItems`, `maxItems`, `uniqueItems`,
//! `minLength`, `maxLength`, `minimum`, `maximum`, `maxProperties`, `allOf`, `anyOf`, `oneOf`,
//! the snowflake `pattern`, and the integer `format`s.

use serde_json::Value;

pub struct Spec {
    doc: Value,
}

/// An operation found for a request: its request-body schema for the content type, if any.
pub struct Operation<'a> {
    pub template: &'a str,
    pub body_schema: Option<&'a Value>,
}

impl Spec {
    pub fn load() -> Spec {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/discord/openapi-subset.json"
        );
        let text = std::fs::read_to_string(path).expect("spec subset");
        Spec {
            doc: serde_json::from_str(&text).expect("spec subset is JSON"),
        }
    }

    /// The operation for `method` on `path` (after `/api/v10`), checking path parameters.
    pub fn operation(&self, method: &str, path: &str) -> Result<Operation<'_>, String> {
        let paths = self.doc["paths"].as_object().expect("paths");
        let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
        let mut best: Option<(&str, usize)> = None;
        for template in paths.keys() {
            let t: Vec<&str> = template.trim_matches('/').split('/').collect();
            if t.len() != segs.len() {
                continue;
            }
            let mut literal = 0;
            let ok = t.iter().zip(&segs).all(|(a, b)| {
                if a.starts_with('{') {
                    !b.is_empty()
                } else {
                    literal += 1;
                    a == b
                }
            });
            if ok && best.is_none_or(|(_, l)| literal > l) {
                best = Some((template.as_str(), literal));
            }
        }
        let (template, _) =
            best.ok_or_else(|| format!("{method} {path}: no such path in the spec"))?;
        let t: Vec<&str> = template.trim_matches('/').split('/').collect();
        for (a, b) in t.iter().zip(&segs) {
            let snowflake = !b.is_empty() && b.chars().all(|c| c.is_ascii_digit());
            if a.ends_with("_id}") && !snowflake {
                return Err(format!(
                    "{method} {path}: path parameter {a} = `{b}` is not a snowflake"
                ));
            }
        }
        let op = &paths[template][method.to_ascii_lowercase()];
        if op.is_null() {
            return Err(format!(
                "{method} {path}: the spec has no {method} on {template}"
            ));
        }
        let body_schema = op
            .pointer("/requestBody/content/application~1json/schema")
            .or_else(|| op.pointer("/requestBody/content/multipart~1form-data/schema"));
        Ok(Operation {
            template: paths
                .get_key_value(template)
                .map(|(k, _)| k.as_str())
                .unwrap_or(""),
            body_schema,
        })
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut s = schema;
        while let Some(r) = s.get("$ref").and_then(Value::as_str) {
            s = self
                .doc
                .pointer(r.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("unresolved {r}"));
        }
        s
    }

    /// Errors of `value` against `schema`, each with its JSON pointer; empty when valid.
    pub fn validate(&self, schema: &Value, value: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(schema, value, "", &mut errors);
        errors
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
        let schema = self.resolve(schema);
        let fail = |errors: &mut Vec<String>, why: String| errors.push(format!("{at}: {why}"));
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            for s in all {
                self.check(s, value, at, errors);
            }
        }
        for (key, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            if let Some(branches) = schema.get(key).and_then(Value::as_array) {
                let results: Vec<Vec<String>> = branches
                    .iter()
                    .map(|s| {
                        let mut e = Vec::new();
                        self.check(s, value, at, &mut e);
                        e
                    })
                    .collect();
                let passing = results.iter().filter(|e| e.is_empty()).count();
                if passing == 0 {
                    let best = results
                        .iter()
                        .min_by_key(|e| e.len())
                        .cloned()
                        .unwrap_or_default();
                    fail(
                        errors,
                        format!("matches none of {key} (closest: {})", best.join("; ")),
                    );
                } else if exactly_one && passing > 1 {
                    fail(errors, format!("matches {passing} branches of oneOf"));
                }
            }
        }
        if let Some(t) = schema.get("type") {
            let types: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            if !types.iter().any(|t| type_matches(t, value)) {
                // Known erratum of the spec: new attachments are numbered with integers in the
                // upload flow (`"attachments": [{"id": 0}]` matching `files[0]`), while the spec
                // types that id as a snowflake string.
                let erratum = schema.get("format").and_then(Value::as_str) == Some("snowflake")
                    && value.is_u64()
                    && is_attachment_id(at);
                if !erratum {
                    fail(
                        errors,
                        format!("expected {types:?}, found {}", short(value)),
                    );
                    return;
                }
            }
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            if !e.iter().any(|v| json_eq(v, value)) {
                fail(
                    errors,
                    format!(
                        "{} is not one of {}",
                        short(value),
                        short(&Value::Array(e.clone()))
                    ),
                );
            }
        }
        if let Some(c) = schema.get("const") {
            if !json_eq(c, value) {
                fail(errors, format!("{} is not {}", short(value), short(c)));
            }
        }
        match value {
            Value::Object(map) => {
                let props = schema.get("properties").and_then(Value::as_object);
                if let Some(req) = schema.get("required").and_then(Value::as_array) {
                    for r in req.iter().filter_map(Value::as_str) {
                        if !map.contains_key(r) {
                            fail(errors, format!("missing required `{r}`"));
                        }
                    }
                }
                if let Some(n) = schema.get("maxProperties").and_then(Value::as_u64) {
                    if map.len() as u64 > n {
                        fail(errors, format!("more than {n} properties"));
                    }
                }
                for (k, v) in map {
                    let here = format!("{at}/{k}");
                    match props.and_then(|p| p.get(k)) {
                        Some(s) => self.check(s, v, &here, errors),
                        None => match schema.get("additionalProperties") {
                            Some(Value::Bool(false)) => {
                                errors.push(format!("{here}: property not allowed by the spec"))
                            }
                            Some(s @ Value::Object(_)) => self.check(s, v, &here, errors),
                            _ => {}
                        },
                    }
                }
            }
            Value::Array(items) => {
                if let Some(n) = schema.get("minItems").and_then(Value::as_u64) {
                    if (items.len() as u64) < n {
                        fail(errors, format!("fewer than {n} items"));
                    }
                }
                if let Some(n) = schema.get("maxItems").and_then(Value::as_u64) {
                    if items.len() as u64 > n {
                        fail(errors, format!("more than {n} items ({})", items.len()));
                    }
                }
                if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
                    for (i, a) in items.iter().enumerate() {
                        if items[..i].iter().any(|b| json_eq(a, b)) {
                            fail(errors, format!("item {i} repeats an earlier one"));
                        }
                    }
                }
                if let Some(s) = schema.get("items") {
                    for (i, v) in items.iter().enumerate() {
                        self.check(s, v, &format!("{at}/{i}"), errors);
                    }
                }
            }
            Value::String(s) => {
                let n = s.chars().count() as u64;
                if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
                    if n < min {
                        fail(errors, format!("shorter than {min}"));
                    }
                }
                if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
                    if n > max {
                        fail(errors, format!("longer than {max} ({n})"));
                    }
                }
                if let Some(p) = schema.get("pattern").and_then(Value::as_str) {
                    match p {
                        "^(0|[1-9][0-9]*)$" => {
                            let ok = s == "0"
                                || (!s.is_empty()
                                    && !s.starts_with('0')
                                    && s.chars().all(|c| c.is_ascii_digit()));
                            if !ok {
                                fail(errors, format!("`{s}` is not a snowflake"));
                            }
                        }
                        other => fail(
                            errors,
                            format!("pattern {other} is not supported by the checker"),
                        ),
                    }
                }
            }
            Value::Number(num) => {
                if let (Some(min), Some(x)) =
                    (schema.get("minimum").and_then(Value::as_f64), num.as_f64())
                {
                    if x < min {
                        fail(errors, format!("{x} is below {min}"));
                    }
                }
                if let (Some(max), Some(x)) =
                    (schema.get("maximum").and_then(Value::as_f64), num.as_f64())
                {
                    if x > max {
                        fail(errors, format!("{x} is above {max}"));
                    }
                }
                if schema.get("format").and_then(Value::as_str) == Some("int32")
                    && num.as_i64().is_none_or(|x| i32::try_from(x).is_err())
                {
                    fail(errors, format!("{num} is not an int32"));
                }
            }
            _ => {}
        }
    }
}

fn is_attachment_id(at: &str) -> bool {
    let parts: Vec<&str> = at.rsplit('/').take(3).collect();
    matches!(parts.as_slice(), ["id", n, "attachments"] if n.chars().all(|c| c.is_ascii_digit()))
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_checker_finds_violations_in_requests() {
        let spec = Spec::load();
        let op = spec
            .operation("POST", "/channels/123/messages")
            .expect("create message");
        let schema = op.body_schema.expect("body");
        assert!(spec.validate(schema, &json!({"content": "hi"})).is_empty());
        let long = "x".repeat(4001);
        assert!(!spec.validate(schema, &json!({"content": long})).is_empty());
        assert!(!spec.validate(schema, &json!({"content": 5})).is_empty());
        assert!(!spec
            .validate(
                schema,
                &json!({"content": "a", "attachments": [{"id": "x1"}]})
            )
            .is_empty());
        // The erratum: integer ids of new uploads pass.
        assert!(spec
            .validate(schema, &json!({"content": "a", "attachments": [{"id": 0}]}))
            .is_empty());
        assert!(spec.operation("POST", "/channels/abc/messages").is_err());
        assert!(spec.operation("DELETE", "/channels/1/messages").is_err());
        assert!(spec.operation("GET", "/nowhere").is_err());
    }
}
