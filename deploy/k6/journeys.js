// k6: the member journeys against a running portal, with pass/fail thresholds.
//
//   k6 run --no-usage-report -e BASE=http://127.0.0.1:8080 deploy/k6/journeys.js
//   (deploy/k6/run.sh starts the split stack and runs this for you)
//
// Journeys, each its own scenario at a steady arrival rate (the `scenario` tag names it):
//   sign_in        a 6-digit code by email (read from the dev outbox), then verify
//   read_profile   GET /api/profile
//   update_comms   PUT /api/profile/attributes/comms, one preference flipped
//   list_orders    GET /api/profile/transactions (newest first, with products)
//   redeem_reward  POST /api/profile/rewards/redeem, a fresh Idempotency-Key per attempt
//   convert_points POST /api/qff/redeem (1,000 points), a fresh Idempotency-Key per attempt
//
// setup() registers one member per VU (POST /api/auth/create) and signs each in with the
// emailed link, so no two VUs share a member (a second code request would replace the first's
// code). Conversions need a Frequent Flyer link, so they are made by the two demo members
// (other@example.com is linked; demo@example.com is linked to 1900123456 here). With
// PROFILE_GRPC (host:port of the profile service) every member is also credited 1,000,000
// points through LoyaltyService/AdjustPoints (source `import`), so redemptions and conversions
// never run out; without it they stop at the members' own balances and the rest are counted
// as business refusals (409), which are not errors.
//
// Needs the portal in dev mode (the outbox) with sign-in limits raised for one address and IP
// (PORTAL_RATE_LIMIT__PER_ADDRESS, PORTAL_RATE_LIMIT__PER_IP).
//
// Environment: BASE, RATE (multiplies every journey's rate, default 1), DURATION (default
// 60s), TIMEOUT (per request, default 10s), PROFILE_GRPC, RUN (a tag for member addresses).
// FAULTS=1: the fault test's mode (deploy/faults/run.sh): a 503 with Retry-After in the error
// shape is an allowed answer, anything else unexpected (a 500, a 401, no answer in TIMEOUT) is
// a violation; every answered write and every response are logged for the script to check.
import http from 'k6/http';
import exec from 'k6/execution';
import grpc from 'k6/net/grpc';
import { check } from 'k6';
import { Counter, Rate } from 'k6/metrics';

const BASE = __ENV.BASE || 'http://127.0.0.1:8080';
const RATE = Number(__ENV.RATE || 1);
const DURATION = __ENV.DURATION || '60s';
const FAULTS = __ENV.FAULTS === '1';
const TIMEOUT = __ENV.TIMEOUT || (FAULTS ? '3s' : '10s');
const RUN = __ENV.RUN || `${Date.now()}`;
const CHANNELS = ['email', 'sms', 'push', 'post', 'offers', 'news', 'events'];

// Each journey: its arrival rate (per second, before RATE) and its VUs.
const JOURNEYS = {
  sign_in: { rate: 0.5, vus: 4 },
  read_profile: { rate: 6, vus: 8 },
  update_comms: { rate: 2, vus: 6 },
  list_orders: { rate: 3, vus: 6 },
  redeem_reward: { rate: 1, vus: 4 },
  convert_points: { rate: 0.5, vus: 4 },
};
// Per-journey latency targets (ms) for one request of the journey: p95 and p99. Set from runs
// on the 2-core dev machine (debug build, split topology, other builds running beside it),
// with room for that machine's noise; writes wait for PostgreSQL's commit, conversions for the
// partner. See the README for the figures measured.
const LATENCY = {
  sign_in: [300, 1000],
  read_profile: [150, 400],
  update_comms: [500, 1500],
  list_orders: [250, 500],
  redeem_reward: [600, 1500],
  convert_points: [1000, 2500],
};

const scenarios = {};
const thresholds = {};
let vuTotal = 0;
for (const [name, j] of Object.entries(JOURNEYS)) {
  const rate = Math.max(1, Math.round(j.rate * RATE * 10));
  scenarios[name] = {
    executor: 'constant-arrival-rate',
    exec: name,
    rate,
    timeUnit: '10s',
    duration: DURATION,
    preAllocatedVUs: j.vus,
    maxVUs: j.vus,
  };
  vuTotal += j.vus;
  if (!FAULTS) {
    const [p95, p99] = LATENCY[name];
    thresholds[`http_req_duration{scenario:${name}}`] = [`p(95)<${p95}`, `p(99)<${p99}`];
    thresholds[`journey_failed{scenario:${name}}`] = ['rate<0.01'];
  }
}
if (FAULTS) {
  // During an outage: only 2xx, business refusals, or 503 + Retry-After in the error shape.
  thresholds.fault_violations = ['count==0'];
} else {
  thresholds.http_req_failed = ['rate<0.01'];
  thresholds.checks = ['rate>0.99'];
  if (__ENV.PROFILE_GRPC) thresholds.business_refusals = ['count==0'];
}

export const options = {
  scenarios,
  thresholds,
  setupTimeout: '120s',
  summaryTrendStats: ['avg', 'p(50)', 'p(95)', 'p(99)', 'max'],
};

const journeyFailed = new Rate('journey_failed');
const businessRefusals = new Counter('business_refusals');
const faultViolations = new Counter('fault_violations');
const unavailable = new Counter('unavailable_503');

const grpcClient = __ENV.PROFILE_GRPC ? new grpc.Client() : null;
if (grpcClient) grpcClient.load([__ENV.PROTO_DIR || '../../proto'], 'portal/profile/v1/loyalty.proto');

const json = (body) => JSON.stringify(body);
const headers = (token, extra) => ({ 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(extra || {}) });
const key = () => `k6-${RUN}-${exec.vu.idInTest}-${exec.scenario.iterationInTest}-${Math.random().toString(36).slice(2, 10)}`;

/// The newest outbox message to `email` that `match` accepts.
function outboxFor(email, match) {
  const r = http.get(`${BASE}/_dev/outbox.json`, { timeout: TIMEOUT, tags: { name: 'outbox' } });
  if (r.status !== 200) return { status: r.status };
  const m = r.json().find((x) => x.to === email && match(x));
  return { status: 200, message: m };
}

function linkToken(link) {
  const q = link.split('?')[1] || '';
  for (const pair of q.split('&')) {
    const [k, v] = pair.split('=');
    if (k === 'token') return decodeURIComponent(v);
  }
  return '';
}

function must(r, what, want) {
  if (r.status !== want) throw new Error(`setup: ${what}: ${r.status} ${r.body}`);
  return r;
}

/// Signs a member in with an emailed link; returns { email, token, pid }.
function signInWithLink(email) {
  must(http.post(`${BASE}/api/auth`, json({ email }), { headers: headers() }), `link for ${email}`, 200);
  const { message } = outboxFor(email, (m) => m.link);
  if (!message) throw new Error(`setup: no link for ${email} in the outbox`);
  const r = must(http.post(`${BASE}/api/auth/exchange`, json({ token: linkToken(message.link) }), { headers: headers() }), `exchange for ${email}`, 200);
  return { email, token: r.json('token'), pid: r.json('profile_id') };
}

export function setup() {
  must(http.get(`${BASE}/healthz`), 'healthz', 200);
  const members = [];
  for (let i = 1; i <= vuTotal; i++) {
    const email = `load-${RUN}-${i}@example.test`;
    const r = http.post(`${BASE}/api/auth/create`, json({ email, first_name: 'Load', last_name: 'Tester' }), { headers: headers() });
    must(r, `register ${email}`, 202);
    const { message } = outboxFor(email, (m) => m.link);
    if (!message) throw new Error(`setup: no link for ${email}`);
    const s = must(http.post(`${BASE}/api/auth/exchange`, json({ token: linkToken(message.link) }), { headers: headers() }), `exchange ${email}`, 200);
    members.push({ email, token: s.json('token'), pid: s.json('profile_id') });
  }
  const converters = [signInWithLink('other@example.com'), signInWithLink('demo@example.com')];
  // demo@example.com links the sandbox's 1900123456 (already linked from an earlier run: 409).
  const link = http.post(`${BASE}/api/qff/link`, json({ qff_number: '1900123456', last_name: 'Demo' }), { headers: headers(converters[1].token) });
  if (link.status !== 200 && link.status !== 409) must(link, 'linking demo@example.com', 200);
  let granted = false;
  if (grpcClient) {
    grpcClient.connect(__ENV.PROFILE_GRPC, { plaintext: true, timeout: '5s' });
    for (const m of [...members, ...converters]) {
      const r = grpcClient.invoke('portal.profile.v1.LoyaltyService/AdjustPoints', {
        profile_id: m.pid, points: 1000000, source: 'import', reason: 'k6 load test', reference: `k6:${RUN}:${m.pid}`,
      });
      if (r.status !== grpc.StatusOK) throw new Error(`setup: AdjustPoints for ${m.email}: ${JSON.stringify(r.error)}`);
    }
    grpcClient.close();
    granted = true;
  }
  return { members, converters, granted };
}

/// This VU's own member (one per VU: setup registered as many as there are VUs).
const me = (data) => data.members[(exec.vu.idInTest - 1) % data.members.length];

/// Judges one response. `ok`: the statuses that mean success; `business`: refusals that are
/// the member's situation (not enough points), not faults. Returns true when it succeeded.
function judge(r, journey, ok, business) {
  const shapeOk = () => {
    try {
      const b = r.json();
      return b.error === true && b.status === r.status && typeof b.message === 'string' && typeof b.errors === 'object';
    } catch (_) {
      return false;
    }
  };
  let outcome;
  if (ok.includes(r.status)) outcome = 'ok';
  else if (business.includes(r.status)) outcome = 'business';
  else if (r.status === 503 && r.headers['Retry-After'] && shapeOk()) outcome = 'unavailable';
  else outcome = 'violation';
  if (outcome === 'business') businessRefusals.add(1, { scenario: journey });
  if (outcome === 'unavailable') unavailable.add(1, { scenario: journey });
  if (FAULTS) {
    if (outcome === 'violation') faultViolations.add(1, { scenario: journey, status: String(r.status) });
    // For the fault script: when, which journey, what answer (0: no answer within TIMEOUT), in
    // how many ms, to what.
    console.log(`R ${Date.now()} ${journey} ${r.status} ${Math.round(r.timings.duration)} ${r.request.method} ${r.request.url.replace(BASE, '').split('?')[0]}${outcome === 'violation' ? ' VIOLATION ' + String(r.body).slice(0, 120) : ''}`);
  }
  check(r, { [`${journey}: ${ok.join('/')}${business.length ? ' or ' + business.join('/') : ''}`]: () => outcome === 'ok' || outcome === 'business' });
  return outcome === 'ok';
}

/// Marks the journey's outcome once: failed unless every step succeeded or was a business refusal.
function done(journey, succeeded) {
  journeyFailed.add(!succeeded, { scenario: journey });
}

const acked = (record) => console.log(`A ${JSON.stringify(record)}`);
const params = (token, extra, tags) => ({ headers: headers(token, extra), timeout: TIMEOUT, tags });
// A business refusal (409: not enough points) is the member's situation, not a fault: it is not
// counted in http_req_failed, but in business_refusals (which must stay 0 when PROFILE_GRPC
// credited the members, i.e. the journeys do not drain the balances).
const business = () => ({ responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 409) });

export function sign_in(data) {
  const m = me(data);
  const ask = http.post(`${BASE}/api/auth/email`, json({ email: m.email }), params(null));
  if (!judge(ask, 'sign_in', [200], [])) return done('sign_in', false);
  const { status, message } = outboxFor(m.email, (x) => x.subject === 'Your sign-in code');
  if (status !== 200 || !message) return done('sign_in', false);
  const code = (message.text.match(/\d{6}/) || [''])[0];
  const r = http.post(`${BASE}/api/auth/verify`, json({ email: m.email, code }), params(null));
  const ok = judge(r, 'sign_in', [200], []);
  done('sign_in', ok && check(r, { 'sign_in: a session token': (res) => !!res.json('token') }));
}

export function read_profile(data) {
  const m = me(data);
  const r = http.get(`${BASE}/api/profile`, params(m.token));
  done('read_profile', judge(r, 'read_profile', [200], []) && r.json('email') === m.email);
}

export function update_comms(data) {
  const m = me(data);
  const channel = CHANNELS[Math.floor(Math.random() * CHANNELS.length)];
  const value = Math.random() < 0.5;
  const t0 = Date.now();
  const r = http.put(`${BASE}/api/profile/attributes/comms`, json({ [channel]: value }), params(m.token));
  const ok = judge(r, 'update_comms', [200], []);
  if (ok) {
    const now = r.json(`attributes.comms.${channel}`);
    acked({ kind: 'comms', pid: m.pid, channel, value: now, t0, t1: Date.now() });
    return done('update_comms', now === value);
  }
  done('update_comms', false);
}

export function list_orders(data) {
  const m = me(data);
  const r = http.get(`${BASE}/api/profile/transactions?page=1&per_page=20&include=product`, params(m.token));
  done('list_orders', judge(r, 'list_orders', [200], []) && Array.isArray(r.json('data')));
}

export function redeem_reward(data) {
  const m = data.granted ? me(data) : data.converters[1];
  const r = http.post(`${BASE}/api/profile/rewards/redeem`, json({ catalogue_id: 'coffee' }), { ...params(m.token, { 'Idempotency-Key': key() }), ...business() });
  const ok = judge(r, 'redeem_reward', [201], [409]);
  if (ok) acked({ kind: 'reward', pid: m.pid, id: r.json('data.reward.id') });
  done('redeem_reward', ok || r.status === 409);
}

export function convert_points(data) {
  const m = data.converters[exec.vu.idInTest % data.converters.length];
  const r = http.post(`${BASE}/api/qff/redeem`, json({ points: 1000 }), { ...params(m.token, { 'Idempotency-Key': key() }), ...business() });
  const ok = judge(r, 'convert_points', [200, 202], [409]);
  if (ok) acked({ kind: 'conversion', pid: m.pid, id: r.json('data.id'), status: r.json('data.status') });
  done('convert_points', ok || r.status === 409);
}
