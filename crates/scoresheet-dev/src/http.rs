//! A small HTTP/1.1 client for the desk's and the feed's tests and tools: one
//! request on its own connection, written byte for byte as given, so that a
//! test can send what no well-behaved client would (another `Host`, a body
//! over the limit, no token).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One request: `addr` is where it goes, `host` what its `Host` header names
/// (a browser names the page's host, whatever address the name led it to).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub addr: &'a str,
    pub host: &'a str,
    pub method: &'a str,
    pub path: &'a str,
    /// The `Cookie` header's value, none when empty.
    pub cookies: &'a str,
    /// A POST's form body (`application/x-www-form-urlencoded`).
    pub body: &'a str,
    /// More header lines, each ending in CRLF.
    pub extra: &'a str,
}

impl<'a> Request<'a> {
    /// A GET of `path` at `addr`, naming `addr` as its host.
    pub fn get(addr: &'a str, path: &'a str) -> Self {
        Request { addr, host: addr, method: "GET", path, cookies: "", body: "", extra: "" }
    }

    /// A form POST of `body` to `path` at `addr`.
    pub fn post(addr: &'a str, path: &'a str, body: &'a str) -> Self {
        Request { method: "POST", body, ..Request::get(addr, path) }
    }

    /// Sends it and reads the whole reply (a chunked body joined); waits at
    /// most `timeout` for each read.
    pub fn send(&self, timeout: Duration) -> io::Result<Reply> {
        let mut s = TcpStream::connect(self.addr)?;
        s.set_read_timeout(Some(timeout))?;
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{}",
            self.method, self.path, self.host, self.extra
        );
        if !self.cookies.is_empty() {
            head.push_str(&format!("Cookie: {}\r\n", self.cookies));
        }
        if self.method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                self.body.len()
            ));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes())?;
        // A body over the limit may be refused before it is all read: the
        // reply says so, not the write.
        let _ = s.write_all(self.body.as_bytes());
        let mut raw = Vec::new();
        // A server that refuses a body it has not read resets the connection
        // once its reply is out: the reply read before the reset stands.
        match s.read_to_end(&mut raw) {
            Err(e) if raw.is_empty() => Err(e),
            _ => Ok(Reply::parse(&raw)),
        }
    }
}

/// An HTTP reply: its status, its header lines as sent, its body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Reply {
    fn parse(raw: &[u8]) -> Reply {
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(raw.len());
        let headers = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut rest = raw.get(split + 4..).unwrap_or_default().to_vec();
        if headers.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            rest = unchunked(&rest);
        }
        let status = headers.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        Reply { status, headers, body: String::from_utf8_lossy(&rest).into_owned() }
    }

    /// The value of the header `name` (any case), the first if repeated.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }

    /// The value a `Set-Cookie` header gives the cookie `name`.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .lines()
            .filter_map(|l| {
                l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")).map(|(_, v)| v.trim())
            })
            .find_map(|c| c.strip_prefix(&format!("{name}=")))
            .map(|c| c.split(';').next().unwrap_or("").to_string())
    }
}

/// `v` as one value of a form body (`application/x-www-form-urlencoded`):
/// letters, digits and `-_.~` as they are, every other byte `%XX`.
pub fn form_value(v: &str) -> String {
    const KEPT: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');
    percent_encoding::utf8_percent_encode(v, KEPT).to_string()
}

/// A chunked body's chunks joined.
fn unchunked(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&raw[..eol]);
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if size == 0 || raw.len() < eol + 2 + size {
            break;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = raw.get(eol + 4 + size..).unwrap_or_default();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_reply_is_read_whole_with_its_headers_and_cookies() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nSet-Cookie: csrf=abc; Path=/\r\n\
Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
        let r = Reply::parse(raw);
        assert_eq!(r.status, 200);
        assert_eq!(r.body, "hello world");
        assert_eq!(r.header("content-type").as_deref(), Some("text/plain"));
        assert_eq!(r.cookie("csrf").as_deref(), Some("abc"));
        assert_eq!(r.cookie("other"), None);
    }
}
