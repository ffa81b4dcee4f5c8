// k6: the member's hot reads and a redemption through the gateway, at a steady total rate,
// against a PostgreSQL filled by deploy/bench/data-scale.sh (which starts this).
//   k6 run -e BASE=... -e TOKENS=t1,t2 -e RATE=500 -e DURATION=20s deploy/bench/data-scale.js
// The rate is split evenly over five journeys, each a scenario tagged `ep`: profile, balances,
// points (the newest page), orders (the newest page, with products) and redeem (the cheapest
// catalogue item, a fresh Idempotency-Key each time; a 409 "not enough points" is an answer, not
// an error). Each request is made as one of TOKENS, round robin.
import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';

const BASE = __ENV.BASE;
const TOKENS = (__ENV.TOKENS || '').split(',').filter(Boolean);
const RATE = Number(__ENV.RATE || 500);
const DURATION = __ENV.DURATION || '20s';
const EPS = ['profile', 'balances', 'points', 'orders', 'redeem'];

const scenarios = {};
const thresholds = { http_req_failed: ['rate<0.01'] };
for (const ep of EPS) {
  scenarios[ep] = {
    executor: 'constant-arrival-rate',
    exec: ep,
    rate: Math.max(1, Math.round(RATE / EPS.length)),
    timeUnit: '1s',
    duration: DURATION,
    preAllocatedVUs: 20,
    maxVUs: 100,
    tags: { ep },
  };
  // A threshold per journey puts its figures in the summary export (always true: the script
  // judges the figures itself).
  thresholds[`http_req_duration{ep:${ep}}`] = ['p(99)>=0'];
}

export const options = { scenarios, thresholds, summaryTrendStats: ['avg', 'p(50)', 'p(90)', 'p(99)', 'max'] };

function auth() {
  const token = TOKENS[exec.scenario.iterationInTest % TOKENS.length];
  return { Authorization: `Bearer ${token}` };
}

function get(path) {
  const r = http.get(`${BASE}${path}`, { headers: auth() });
  check(r, { 'status 200': (res) => res.status === 200 });
}

export function profile() {
  get('/api/profile');
}
export function balances() {
  get('/api/profile/balances');
}
export function points() {
  get('/api/profile/points?sort=-issued_at&per_page=20');
}
export function orders() {
  get('/api/profile/transactions?sort=-transacted_at&per_page=20&include=product');
}
export function redeem() {
  const headers = { ...auth(), 'content-type': 'application/json', 'idempotency-key': `bench-${exec.vu.idInTest}-${exec.scenario.iterationInTest}-${Date.now()}` };
  const r = http.post(`${BASE}/api/profile/rewards/redeem`, JSON.stringify({ catalogue_id: __ENV.ITEM || 'coffee' }), {
    headers,
    responseCallback: http.expectedStatuses(200, 201, 409),
  });
  check(r, { 'redeemed or not enough points': (res) => [200, 201, 409].includes(res.status) });
}
