//! Who may use the desk: the host a request names, the token (for an
//! address other than loopback), the form token against cross-site
//! requests, the arbiter's name, and the language of the pages. Cookies are read and written here, by hand: three
//! small ones, all `HttpOnly` and `SameSite=Strict`.

use std::net::SocketAddr;

use axum::http::{HeaderMap, HeaderValue, header};

use crate::emit::page::{EN, ES, Words, url_escape, url_unescape};

/// The hosts the desk answers to. A page whose own name is made to point at
/// this machine (DNS rebinding) is the same origin as the desk to the
/// browser, but its requests name that host: they are refused.
#[derive(Debug, Clone)]
pub(super) struct Hosts {
    /// Lowercase, without a port; an IPv6 address in brackets.
    names: Vec<String>,
    /// Listening on every address (`0.0.0.0`, `[::]`): any address of the
    /// machine is the desk's (an address is no name another page can take).
    any_address: bool,
}

impl Hosts {
    /// The host of `listen` as written, the address `bound` to, `localhost`
    /// and the loopback addresses for a loopback one, and `more`.
    pub(super) fn new(listen: &str, bound: SocketAddr, more: &[String]) -> Hosts {
        let mut names: Vec<String> = more.iter().map(|h| host_of(h)).collect();
        names.push(host_of(listen));
        names.push(host_of(&bound.to_string()));
        if bound.ip().is_loopback() {
            names.extend(["localhost", "127.0.0.1", "[::1]"].map(String::from));
        }
        names.sort();
        names.dedup();
        Hosts { names, any_address: bound.ip().is_unspecified() }
    }

    /// Whether a request naming `host` (a `Host` header, port and all) is
    /// the desk's.
    pub(super) fn allow(&self, host: &str) -> bool {
        let h = host_of(host);
        let address = || {
            let inner = h.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
            inner.map_or_else(|| h.parse::<std::net::Ipv4Addr>().is_ok(), |v6| v6.parse::<std::net::Ipv6Addr>().is_ok())
        };
        !h.is_empty() && (self.names.contains(&h) || (self.any_address && address()))
    }

    /// Whether a request names a host this server answers to, in its
    /// `Host` header and in its target where that is a whole URL.
    pub(super) fn allow_request<B>(&self, req: &axum::http::Request<B>) -> bool {
        let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok());
        let named = host.or_else(|| req.uri().authority().map(|a| a.as_str()));
        let target_ok = req.uri().authority().is_none_or(|a| self.allow(a.as_str()));
        named.is_some_and(|h| self.allow(h)) && target_ok
    }
}

/// `host[:port]` without its port, lowercase, without a final dot.
fn host_of(text: &str) -> String {
    let t = text.trim();
    let host = match t.rsplit_once(':') {
        // `[::1]:8080`, `name:8080`; a bare IPv6 address has more colons.
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) && (h.ends_with(']') || !h.contains(':')) => h,
        _ => t,
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// A random hex token of `bytes` bytes, from the system's random source
/// (`getrandom`); never from anything else: without it the desk does not start.
pub(super) fn random_token(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf)?;
    Ok(hex(&buf))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The value of cookie `name` in a request's headers (`cookie` reads the
/// header; the value percent-decoded, as [`set_cookie`] encodes it).
pub(super) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| url_unescape(c.value()))
}

/// A `Set-Cookie` header for `name=value`, for the whole desk.
pub(super) fn set_cookie(name: &str, value: &str) -> HeaderValue {
    let text = format!("{name}={}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000", url_escape(value));
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("x=; Path=/"))
}

/// A percent-encoded value decoded (bytes that are not UTF-8 replaced).
pub(super) fn unescape(v: &str) -> String {
    url_unescape(v)
}

/// A new form token signed with `secret`: `<nonce>.<HMAC-SHA256 of it>`, hex.
/// The nonce is the HMAC of the token's number under the secret: unique,
/// and known to none who does not hold the secret.
pub(super) fn signed_token(secret: &str, number: u64) -> String {
    let nonce = mac(secret, &format!("nonce {number}"));
    let nonce = &nonce[..32];
    format!("{nonce}.{}", mac(secret, nonce))
}

/// Whether `token` is one [`signed_token`] made with `secret` (the tag
/// checked by `hmac`, in constant time).
pub(super) fn signed_by(secret: &str, token: &str) -> bool {
    use hmac::Mac;
    let Some((nonce, sig)) = token.split_once('.').filter(|(n, _)| !n.is_empty()) else { return false };
    let Some(tag) = unhex(sig) else { return false };
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    m.update(nonce.as_bytes());
    m.verify_slice(&tag).is_ok()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

/// HMAC-SHA256 of `text` under `secret`, in hex.
fn mac(secret: &str, text: &str) -> String {
    use hmac::Mac;
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    m.update(text.as_bytes());
    hex(&m.finalize().into_bytes())
}

/// Whether a form was posted from this desk's own pages, as far as the
/// browser says: its `Origin` (else its `Referer`) names the host the
/// request was sent to. A client that sends neither (not a browser) passes.
pub(super) fn same_origin(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let origin_of = |url: &str| url.split_once("://").map(|(_, rest)| rest.split('/').next().unwrap_or("").to_string());
    let said = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .map(|v| v.to_str().ok().and_then(origin_of).unwrap_or_default());
    said.is_none_or(|o| !host.is_empty() && o.eq_ignore_ascii_case(host))
}

/// Two secrets compared in time that does not depend on where they differ.
pub(super) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The pages' language: the config's, else `?lang=`, else the browser's.
pub(super) fn words(config: Option<&str>, query: Option<&str>, headers: &HeaderMap) -> &'static Words {
    let pick = |l: &str| if l.trim().to_ascii_lowercase().starts_with("es") { Some(&ES) } else { None };
    if let Some(l) = config {
        return pick(l).unwrap_or(&EN);
    }
    if let Some(l) = query {
        return pick(l).unwrap_or(&EN);
    }
    let accepted = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    // The first language the browser names that the desk has.
    for l in accepted.split(',') {
        let l = l.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if l.starts_with("es") {
            return &ES;
        }
        if l.starts_with("en") {
            return &EN;
        }
    }
    &EN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_desk_answers_to_its_address_localhost_and_the_names_listed() {
        let loopback = Hosts::new("127.0.0.1:0", "127.0.0.1:8080".parse().unwrap(), &["Desk.Example.org".into()]);
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST.", "[::1]:8080", "desk.example.org:8080"] {
            assert!(loopback.allow(ok), "{ok}");
        }
        for refused in ["evil.example:8080", "", "127.0.0.2:8080", "localhost.evil.example", "10.0.0.1"] {
            assert!(!loopback.allow(refused), "{refused}");
        }
        let named = Hosts::new("myhost.lan:8080", "192.168.1.20:8080".parse().unwrap(), &[]);
        assert!(named.allow("myhost.lan:8080") && named.allow("192.168.1.20") && !named.allow("localhost"));
        let every = Hosts::new("0.0.0.0:8080", "0.0.0.0:8080".parse().unwrap(), &[]);
        assert!(every.allow("192.168.1.20:8080") && every.allow("[fd00::1]:8080") && !every.allow("evil.example"));
    }

    #[test]
    fn cookies_round_trip_names_with_any_letters() {
        let v = set_cookie("arbiter", "Ana López; x=1");
        let text = v.to_str().unwrap();
        assert!(text.starts_with("arbiter=Ana%20L%C3%B3pez%3B%20x%3D1;"), "{text}");
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str("a=1; arbiter=Ana%20L%C3%B3pez%3B%20x%3D1").unwrap());
        assert_eq!(cookie(&h, "arbiter").as_deref(), Some("Ana López; x=1"));
        assert_eq!(cookie(&h, "b"), None);
    }

    #[test]
    fn the_language_is_the_configs_then_the_querys_then_the_browsers() {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("es-ES,es;q=0.9,en;q=0.8"));
        assert_eq!(words(None, None, &h).lang, "es");
        assert_eq!(words(None, Some("en"), &h).lang, "en");
        assert_eq!(words(Some("en"), Some("es"), &h).lang, "en");
        assert_eq!(words(None, None, &HeaderMap::new()).lang, "en");
        assert!(same_secret("abc", "abc") && !same_secret("abc", "abd") && !same_secret("ab", "abc"));
        assert_eq!(random_token(16).unwrap().len(), 32);
        assert_ne!(random_token(16).unwrap(), random_token(16).unwrap());
    }

    #[test]
    fn a_form_token_is_the_desks_only_whole_and_under_its_secret() {
        let (secret, other) = (random_token(32).unwrap(), random_token(32).unwrap());
        let (a, b) = (signed_token(&secret, 0), signed_token(&secret, 1));
        assert_ne!(a, b, "each token its own nonce");
        assert!(signed_by(&secret, &a) && signed_by(&secret, &b));
        assert!(!signed_by(&other, &a), "another desk's secret");
        let (nonce, tag) = a.split_once('.').unwrap();
        let flipped = format!("{nonce}.{}{}", if tag.starts_with('0') { '1' } else { '0' }, &tag[1..]);
        for forged in [flipped.as_str(), nonce, &a[..a.len() - 2], "", ".", "x.yz", &format!("{nonce}.{tag}00")] {
            assert!(!signed_by(&secret, forged), "{forged:?}");
        }
    }
}
