import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; the runtime decodes tokens with TextDecoder.
const g = globalThis as Record<string, unknown>;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;

afterEach(() => {
  // Not in a test file that runs in plain Node (`@jest-environment node`).
  if (typeof window !== 'undefined') window.localStorage.clear();
});

import '@testing-library/jest-dom';
