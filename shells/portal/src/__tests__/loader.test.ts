// The pages' one script (src/loader/start-after-paint.js): main.js and the files of the shell's
// start are fetched once the drawn page has been painted (after two frames), main.js first and
// the others in the next task; at once in the background and inside an iframe; within 300 ms
// whatever happens to the frames.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE = fs.readFileSync(path.join(__dirname, '..', 'loader', 'start-after-paint.js'), 'utf8');
const FILES = ['/shell/main.0123abcd.js', '/shell/1.aaaaaaaa.js', '/shell/2.bbbbbbbb.js'];

let frames: FrameRequestCallback[];

function page(files: string[] | null = FILES) {
  document.head.replaceChildren();
  if (files) {
    const meta = document.createElement('meta');
    meta.name = 'portal-startup';
    meta.content = files.join(' ');
    document.head.appendChild(meta);
  }
}

/** Runs the loader as the page would. */
const load = () => new Function(SOURCE)();
const preloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].map((l) => [l.getAttribute('href'), l.as]);
const scripts = () => [...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src'));
const frame = () => frames.splice(0).forEach((cb) => cb(performance.now()));

beforeEach(() => {
  jest.useFakeTimers();
  frames = [];
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

it('fetches nothing until the page has been painted, then main.js and every file of the start', () => {
  page();
  load();
  expect(scripts()).toEqual([]);
  frame();
  jest.advanceTimersByTime(0);
  expect(scripts()).toEqual([]);
  frame();
  expect(scripts()).toEqual([]);
  jest.advanceTimersByTime(0);
  expect(scripts()).toEqual(['/shell/main.0123abcd.js']);
  // The others in the next task.
  expect(preloads()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(preloads()).toEqual([
    ['/shell/1.aaaaaaaa.js', 'script'],
    ['/shell/2.bbbbbbbb.js', 'script'],
  ]);
  // Once only, however the timers and frames go on.
  jest.advanceTimersByTime(1000);
  frame();
  expect(scripts()).toHaveLength(1);
});

it('starts within 300 ms when no frame comes', () => {
  page();
  load();
  jest.advanceTimersByTime(299);
  expect(scripts()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(scripts()).toEqual(['/shell/main.0123abcd.js']);
});

it('starts at once in a page opened in the background', () => {
  page();
  jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
  load();
  expect(scripts()).toEqual(['/shell/main.0123abcd.js']);
  expect(frames).toHaveLength(0);
  jest.advanceTimersByTime(1);
  expect(preloads()).toHaveLength(2);
});

it('starts at once inside an iframe', () => {
  page();
  jest.spyOn(window, 'parent', 'get').mockReturnValue({} as Window);
  load();
  expect(scripts()).toEqual(['/shell/main.0123abcd.js']);
});

it('does nothing on a page without the list', () => {
  page(null);
  load();
  frame();
  frame();
  jest.advanceTimersByTime(1000);
  expect(scripts()).toEqual([]);
});
