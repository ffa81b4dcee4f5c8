// The shared settings; index.ts imports './protocol.js' (the name the built ES module needs),
// which is protocol.ts here.
const base = require('@portal/build/jest.base.cjs')(__dirname);

module.exports = { ...base, moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' } };
