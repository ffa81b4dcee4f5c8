//! Helpers for the portal's own tests (not used by the services).

/// A Redis server of the test's own, which it may stop and start again on the same port (the
/// shared one must never be stopped). `None` unless `REDIS_URL` is set (Redis tests are on)
/// and `redis-server` is installed.
pub struct PrivateRedis {
    pub port: u16,
    child: Option<std::process::Child>,
}

impl PrivateRedis {
    pub fn start() -> Option<PrivateRedis> {
        if std::env::var("REDIS_URL").is_err() || std::process::Command::new("redis-server").arg("--version").output().is_err() {
            eprintln!("skipped: needs REDIS_URL set and redis-server installed");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut r = PrivateRedis { port, child: None };
        r.up();
        Some(r)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts it (again) on its port and waits until it accepts connections.
    pub fn up(&mut self) {
        let child = std::process::Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("redis-server did not listen on {}", self.port);
    }

    /// Kills it (as a crash would) and waits until it is gone.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.down();
    }
}
