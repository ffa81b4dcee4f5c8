/**
 * The version of this package's API (what the tabs import from @portal/runtime), semver: a
 * change that breaks a tab is a new major (a new minor while 0.x), an addition a new minor (patch
 * while 0.x). Always the package.json version (a test checks), which module federation compares
 * with each tab's requiredVersion; each tab checks it against its declared range before it mounts
 * (@portal/kit/runtime-compat).
 */
export const RUNTIME_API_VERSION = '0.1.0';
