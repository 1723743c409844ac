//! Where the live board listens, and the address players type: `127.0.0.1` unless the umpire
//! gives one, the machine's address on the local network when it listens on every interface
//! (`0.0.0.0`), and that address as a QR code for the terminal.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs, UdpSocket};

/// The port the board listens on when the address names none.
pub const DEFAULT_PORT: u16 = 8023;

/// The address `text` names: an IP address or a host name, with or without `:PORT` (IPv6 with
/// a port in brackets: `[::]:8023`), or a port alone (on `127.0.0.1`); nothing at all is
/// `127.0.0.1:8023`. `0.0.0.0` listens on every interface, which is what players on the
/// club's network need.
pub fn parse(text: Option<&str>) -> Result<SocketAddr, String> {
    let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(SocketAddr::new(local, DEFAULT_PORT));
    };
    let help = "give an address such as `0.0.0.0` (every interface), `192.168.1.20:8080` or a port such as `8080`";
    if text.chars().all(|c| c.is_ascii_digit()) {
        return match text.parse::<u16>() {
            Ok(port) => Ok(SocketAddr::new(local, port)),
            Err(_) => Err(format!("`{text}` is not a port (1 to 65535): {help}")),
        };
    }
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    // A host name, with or without a port.
    let with_port = if text
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        text.to_string()
    } else if text.contains(':') {
        return Err(format!("`{text}` is not an address to listen on: {help}"));
    } else {
        format!("{text}:{DEFAULT_PORT}")
    };
    match with_port.to_socket_addrs() {
        Ok(mut addrs) => addrs
            .next()
            .ok_or_else(|| format!("`{text}` names no address: {help}")),
        Err(e) => Err(format!(
            "`{text}` is not an address to listen on ({e}): {help}"
        )),
    }
}

/// The address players type to reach a board listening on `bound`: on every interface, the
/// machine's address on the local network (the one its traffic leaves from), else `bound`.
pub fn url(bound: SocketAddr) -> String {
    let ip = if bound.ip().is_unspecified() {
        lan_ip(bound.ip()).unwrap_or(bound.ip())
    } else {
        bound.ip()
    };
    let host = match ip {
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    };
    format!("http://{host}:{}/", bound.port())
}

/// The address this machine's traffic to the wider network leaves from: a UDP socket
/// "connected" to a documentation address picks its route without sending anything.
fn lan_ip(like: IpAddr) -> Option<IpAddr> {
    let (bind, probe): (SocketAddr, SocketAddr) = match like {
        IpAddr::V4(_) => (([0, 0, 0, 0], 0).into(), ([192, 0, 2, 1], 80).into()),
        IpAddr::V6(_) => (
            (std::net::Ipv6Addr::UNSPECIFIED, 0).into(),
            ("2001:db8::1".parse::<IpAddr>().ok()?, 80).into(),
        ),
    };
    let socket = UdpSocket::bind(bind).ok()?;
    socket.connect(probe).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

/// `url` as a QR code drawn with half-block characters, light on a dark terminal (as phones'
/// cameras read it from one); `None` if it does not fit a code (it always does).
pub fn qr(url: &str) -> Option<String> {
    use qrcode::render::unicode::Dense1x2;
    let code = qrcode::QrCode::new(url.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_given_is_localhost() {
        assert_eq!(parse(None).unwrap(), "127.0.0.1:8023".parse().unwrap());
        assert_eq!(parse(Some(" ")).unwrap(), "127.0.0.1:8023".parse().unwrap());
        assert_eq!(
            parse(Some("9000")).unwrap(),
            "127.0.0.1:9000".parse().unwrap()
        );
    }

    #[test]
    fn addresses_with_and_without_ports() {
        assert_eq!(
            parse(Some("0.0.0.0")).unwrap(),
            "0.0.0.0:8023".parse().unwrap()
        );
        assert_eq!(
            parse(Some("192.168.1.20:8080")).unwrap(),
            "192.168.1.20:8080".parse().unwrap()
        );
        assert_eq!(parse(Some("::")).unwrap(), "[::]:8023".parse().unwrap());
        assert_eq!(
            parse(Some("[::1]:81")).unwrap(),
            "[::1]:81".parse().unwrap()
        );
        assert!(parse(Some("localhost")).unwrap().ip().is_loopback());
    }

    #[test]
    fn a_bad_address_says_what_to_give() {
        let e = parse(Some("nowhere:port")).unwrap_err();
        assert!(e.contains("`nowhere:port` is not an address"), "{e}");
        assert!(e.contains("0.0.0.0"), "{e}");
        let e = parse(Some("99999")).unwrap_err();
        assert!(e.contains("99999"), "{e}");
    }

    #[test]
    fn the_url_of_a_bound_address() {
        assert_eq!(
            url("127.0.0.1:8023".parse().unwrap()),
            "http://127.0.0.1:8023/"
        );
        assert_eq!(url("[::1]:81".parse().unwrap()), "http://[::1]:81/");
        // Every interface: some address of this machine, never 0.0.0.0 when it has a route.
        let u = url("0.0.0.0:8023".parse().unwrap());
        assert!(u.starts_with("http://") && u.ends_with(":8023/"), "{u}");
    }

    #[test]
    fn the_qr_code_is_drawn() {
        let q = qr("http://192.168.1.20:8023/").unwrap();
        assert!(q.lines().count() > 10, "{q}");
        assert!(q.contains('█') || q.contains('▀'), "{q}");
    }
}
