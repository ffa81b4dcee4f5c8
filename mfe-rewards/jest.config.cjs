module.exports = require('@portal/build/jest.base.cjs')(__dirname);
