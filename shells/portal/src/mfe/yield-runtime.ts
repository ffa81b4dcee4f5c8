// Federation runtime plugin of the shell: loading a remote goes in steps of one task each (its
// container initialised, then its module taken), so that it never keeps the main thread long: on
// /home the frequent-flyer summary's remote loads while the page starts (Total Blocking Time).
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime-core';
import { nextTask } from '../next-task';

export default function yieldBetweenSteps(): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-yield-between-steps',
    async beforeInitContainer(args) {
      await nextTask();
      return args;
    },
    async initContainer(args) {
      await nextTask();
      return args;
    },
    // Returns nothing: a value returned here would stand in for the remote's module.
    async onLoad() {
      await nextTask();
    },
  };
}
