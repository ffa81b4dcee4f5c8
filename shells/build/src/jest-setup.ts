import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; the runtime decodes tokens with TextDecoder.
const g = globalThis as Record<string, unknown>;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;

afterEach(() => {
  window.localStorage.clear();
});

import '@testing-library/jest-dom';
