// k6: GET /api/profile at a steady rate through the gateway (token check, gRPC, cache).
//   k6 run --no-usage-report -e BASE=http://127.0.0.1:8080 -e TOKEN=... -e RATE=2000 deploy/bench/profile.js
import http from 'k6/http';
import { check } from 'k6';

export const options = {
  scenarios: {
    steady: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 2000),
      timeUnit: '1s',
      duration: __ENV.DURATION || '20s',
      preAllocatedVUs: 50,
      maxVUs: 200,
    },
  },
  summaryTrendStats: ['avg', 'p(50)', 'p(90)', 'p(99)', 'max'],
  thresholds: { http_req_failed: ['rate<0.001'], 'http_req_duration{expected_response:true}': ['p(99)<5'] },
};

const params = { headers: { Authorization: `Bearer ${__ENV.TOKEN}` } };

export default function () {
  const r = http.get(`${__ENV.BASE}/api/profile`, params);
  check(r, { 'status 200': (res) => res.status === 200 });
}
