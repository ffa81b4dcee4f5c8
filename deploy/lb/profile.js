// k6: GET /api/profile at a steady rate through the gateway, for deploy/lb/run.sh. Every
// failed request is logged with its time (ms since the epoch), so the script can tell a call
// in flight on the killed replica from any other failure.
//   k6 run -e BASE=http://127.0.0.1:8080 -e TOKEN=... -e RATE=100 -e DURATION=50s deploy/lb/profile.js
import http from 'k6/http';

export const options = {
  scenarios: {
    steady: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 100),
      timeUnit: '1s',
      duration: __ENV.DURATION || '50s',
      preAllocatedVUs: 20,
      maxVUs: 100,
    },
  },
  summaryTrendStats: ['avg', 'p(50)', 'p(99)', 'max'],
};

const params = { headers: { Authorization: `Bearer ${__ENV.TOKEN}` }, timeout: '10s' };

export default function () {
  const r = http.get(`${__ENV.BASE}/api/profile`, params);
  if (r.status !== 200) console.log(`FAILED ${Date.now()} ${r.status} ${r.error || ''}`);
}
