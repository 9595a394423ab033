//! Operating the server for real (issue 41): the client's address behind trusted reverse proxies.
//! Every wait is for an event (an answer), bounded.

mod common;
use common::server;
use crown_server::App;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A server on a real socket of 127.0.0.1 and the sender that stops it.
struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    async fn start(app: App) -> Running {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            crown_server::serve(app, listener, async move {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Running {
            addr,
            stop: Some(tx),
            task: Some(task),
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task.take().unwrap()).await;
    }
}

/// Connect to `to` from the loopback address `from` (any of 127.0.0.0/8 works on Linux).
async fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(SocketAddr::from((from, 0))).unwrap();
    s.connect(to).await.unwrap()
}

/// One request on connection `s` (kept open): the status and the JSON body of the answer.
async fn request(s: &mut TcpStream, req: &str) -> (u16, Value) {
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let text = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let n = s.read(&mut buf).await.unwrap();
            assert!(
                n > 0,
                "closed before a whole answer: {:?}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len: usize = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse().ok())?
                    })
                    .expect("a Content-Length");
                if body.len() >= len {
                    return text;
                }
            }
        }
    })
    .await
    .expect("an answer in time");
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// `POST /api/games` (an American game) with the extra header lines `headers`.
fn create(headers: &str) -> String {
    let body = r#"{"variant":"american"}"#;
    format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_behind_a_trusted_proxy_are_limited_apart_and_spoofed_headers_are_ignored() {
    // 127.0.0.1 is the proxy; 127.0.0.2 a client connecting directly.
    let app = server()
        .with(|c| {
            c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
            c.max_unjoined_per_ip = 1;
            c.max_conns_per_ip = 2;
            c.header_read_timeout_ms = 30_000;
        })
        .start()
        .await;
    let srv = Running::start(app).await;
    let mut proxy = connect_from([127, 0, 0, 1], srv.addr).await;
    let created = |(status, body): (u16, Value)| {
        assert_eq!(status, 201, "{body}");
    };
    let refused = |(status, body): (u16, Value)| {
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["error"]["code"], "too_many_unjoined", "{body}");
    };
    // One client behind the proxy reaches its own limit...
    created(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.1\r\n")).await);
    refused(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.1\r\n")).await);
    // ...and the other clients of the proxy are not locked out with it.
    created(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.2\r\n")).await);
    created(
        request(
            &mut proxy,
            &create("Forwarded: for=\"198.51.100.3:4711\"\r\n"),
        )
        .await,
    );
    // A client that forges the first hop is still known by the hop the proxy appended.
    created(
        request(
            &mut proxy,
            &create("X-Forwarded-For: 198.51.100.2, 198.51.100.4\r\n"),
        )
        .await,
    );
    // A client that is not a trusted proxy cannot name another address: both are 127.0.0.2.
    let mut direct = connect_from([127, 0, 0, 2], srv.addr).await;
    created(request(&mut direct, &create("X-Forwarded-For: 198.51.100.5\r\n")).await);
    refused(request(&mut direct, &create("X-Forwarded-For: 198.51.100.6\r\n")).await);
    refused(request(&mut direct, &create("Forwarded: for=198.51.100.7\r\n")).await);
    // The proxy carries more connections than one address may hold (2): all are served.
    let mut more = Vec::new();
    for _ in 0..3 {
        more.push(connect_from([127, 0, 0, 1], srv.addr).await);
    }
    for s in &mut more {
        let (status, body) = request(s, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert_eq!(status, 200, "{body}");
    }
    drop((proxy, direct, more));
    srv.stop().await;
}
