// Federation runtime plugin of the shell: hands its own federation runtime core to the remotes,
// which are built with `externalRuntime` and so do not each ship a copy. (The stock
// inject-external-runtime-core-plugin requires the CommonJS build and would put a second copy of
// the core in the shell's entry.)
import * as core from '@module-federation/runtime-core';
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime-core';

export default function provideRuntimeCore(): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-provide-runtime-core',
    beforeInit(args) {
      const global = core.Global as unknown as Record<string, unknown>;
      if (!global._FEDERATION_RUNTIME_CORE) global._FEDERATION_RUNTIME_CORE = core;
      return args;
    },
  };
}
