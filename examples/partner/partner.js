// The example partner page: mounts the portal with @portal/embed (served by the partner server
// at /portal-embed.js; a real partner loads it from the portal at /embed/portal-embed.js) and
// wires the partner tools to the handle.
import { mountPortal } from '/portal-embed.js';

const $ = (id) => document.getElementById(id);
const portalUrl = document.querySelector('meta[name="portal-url"]').content;

function log(text) {
  const item = document.createElement('li');
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = now.toLocaleTimeString();
  item.append(time, ` ${text}`);
  $('log').append(item);
}

// `?lang=ar` on this page opens the portal in that language.
const language = new URLSearchParams(location.search).get('lang') ?? undefined;

const portal = mountPortal($('portal'), {
  portalUrl,
  language,
  minHeight: 480,
  onReady: () => {
    $('status').textContent = 'Ready';
    log('ready');
  },
  onLogin: (e) => log(`login: profile ${e.profile_id}`),
  onLogout: () => log('logout'),
  onCustomerData: (d) => log(`customerData: ${d.email}`),
  onUrl: (url) => {
    $('portal-address').textContent = url;
    log(`url: ${url}`);
  },
  onImpersonate: (e) => log(`impersonate: profile ${e.profile_id}`),
  onError: (e) => log(`error: ${e.error}${e.request ? ` (${e.request})` : ''}`),
});
// For the e2e tests and the console.
window.partnerPortal = portal;

/** Runs a request from a button: busy while it waits, the error (if any) in the log. */
async function run(button, request) {
  button.disabled = true;
  try {
    return await request();
  } catch (err) {
    log(`failed: ${err.message}`);
    return undefined;
  } finally {
    button.disabled = false;
  }
}

$('logout').addEventListener('click', async (e) => {
  await run(e.currentTarget, () => portal.logout());
});

$('customer').addEventListener('click', async (e) => {
  const out = $('customer-data');
  const data = await run(e.currentTarget, () => portal.requestCustomerData());
  if (!data) {
    out.textContent = 'No answer (see the log).';
    return;
  }
  const list = document.createElement('dl');
  for (const [label, value] of [
    ['Name', `${data.first_name} ${data.last_name}`],
    ['Email', data.email],
    ['Region', data.region ?? '–'],
    ['Tier', data.tier ?? '–'],
  ]) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  out.replaceChildren(list);
});

$('impersonate').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  const profileId = form.profileId.value.trim();
  if (!profileId) return;
  const opts = {};
  if (form.reason.value.trim()) opts.reason = form.reason.value.trim();
  if (form.staffToken.value) opts.staffToken = form.staffToken.value;
  const result = await run(form.querySelector('button[type="submit"]'), () => portal.impersonate(profileId, opts));
  if (result) {
    const who = result.impersonatedProfile;
    log(`viewing as ${who ? `${who.first_name} ${who.last_name}` : `profile ${result.profile_id}`}`);
  }
});

$('get-url').addEventListener('click', async (e) => {
  const url = await run(e.currentTarget, () => portal.getUrl());
  if (url) $('portal-address').textContent = url;
});

$('clear-log').addEventListener('click', () => $('log').replaceChildren());

portal.ready.catch(() => undefined);
setTimeout(() => {
  if ($('status').textContent !== 'Ready') {
    $('status').textContent = `No answer from ${portalUrl} yet: is the portal running, and does it allow ${location.origin}?`;
  }
}, 10000);
