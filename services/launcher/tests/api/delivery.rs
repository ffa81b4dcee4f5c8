//! Delivery: a sign-in link sent through a real SMTP conversation with a local server, and a
//! code through an HTTP SMS provider stand-in. Neither lands in the outbox.
use crate::helpers::{six_digits, spawn_app, Options};
use serde_json::json;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A minimal SMTP server: accepts one message per connection and keeps its DATA.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let store = got.clone();
    tokio::spawn(async move {
        loop {
            let Ok((sock, _)) = listener.accept().await else { return };
            let store = store.clone();
            tokio::spawn(async move {
                let (r, mut w) = sock.into_split();
                let mut lines = BufReader::new(r).lines();
                w.write_all(b"220 localhost ESMTP test\r\n").await.unwrap();
                let mut data: Option<String> = None;
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(body) = data.as_mut() {
                        if line == "." {
                            store.lock().unwrap().push(std::mem::take(body));
                            data = None;
                            w.write_all(b"250 2.0.0 queued\r\n").await.unwrap();
                        } else {
                            body.push_str(line.strip_prefix('.').unwrap_or(&line));
                            body.push('\n');
                        }
                        continue;
                    }
                    let verb = line.split_whitespace().next().unwrap_or_default().to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-localhost\r\n250 8BITMIME\r\n",
                        "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 OK\r\n",
                        "DATA" => {
                            data = Some(String::new());
                            b"354 go ahead\r\n"
                        }
                        "QUIT" => {
                            let _ = w.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"502 not implemented\r\n",
                    };
                    w.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, got)
}

/// An HTTP SMS provider stand-in that keeps each POSTed JSON body.
async fn sms_provider() -> (u16, Arc<Mutex<Vec<serde_json::Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let store = got.clone();
    let app = axum::Router::new().route(
        "/messages",
        axum::routing::post(move |axum::Json(v): axum::Json<serde_json::Value>| {
            let store = store.clone();
            async move {
                store.lock().unwrap().push(v);
                axum::http::StatusCode::ACCEPTED
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (port, got)
}

static SMTP_PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
static SMS_PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_go_by_smtp_and_codes_by_the_sms_provider() {
    let (smtp, mails) = smtp_sink().await;
    let (sms, texts) = sms_provider().await;
    SMTP_PORT.set(smtp).unwrap();
    SMS_PORT.set(sms).unwrap();
    let app = spawn_app(Options {
        tweak: |s| {
            s.smtp_url = Some(format!("smtp://127.0.0.1:{}", SMTP_PORT.get().unwrap()).into());
            s.sms_url = Some(format!("http://127.0.0.1:{}/messages", SMS_PORT.get().unwrap()).into());
            s.mail_from = "Demo Brand <hello@brand.example>".into();
        },
        ..Options::default()
    })
    .await
    .unwrap();

    assert_eq!(app.request_link("demo@example.com", "/profile").await.status, 200);
    let mail = mails.lock().unwrap().pop().expect("one message over SMTP");
    assert!(mail.contains("To: demo@example.com"), "{mail}");
    assert!(
        mail.contains("From: \"Demo Brand\" <hello@brand.example>") || mail.contains("From: Demo Brand <hello@brand.example>"),
        "{mail}"
    );
    assert!(mail.contains("Subject: Your sign-in link"), "{mail}");
    // The body is quoted-printable or plain: join soft line breaks before looking for the link.
    let body = mail.replace("=\n", "").replace("=3D", "=");
    assert!(body.contains("/?token="), "{body}");
    assert!(body.contains("redirect=%2Fprofile"), "{body}");

    let r = app.post("/api/auth/sms", None, json!({"email": "demo@example.com"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let text = texts.lock().unwrap().pop().expect("one SMS");
    assert_eq!(text["to"], "+61400000001");
    let code = six_digits(text["text"].as_str().unwrap());
    assert_eq!(app.verify("demo@example.com", &code).await.status, 200);

    assert!(app.outbox().await.is_empty(), "configured transports bypass the outbox");
    app.stop().await;
}
