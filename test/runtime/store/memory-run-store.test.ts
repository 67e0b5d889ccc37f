/** The run store contract on the memory store (stdio's default): one process, nothing kept after it. */
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import { describeRunStoreContract } from './run-store-contract.js';

describeRunStoreContract('memory', {
  open: async (onError) => ({ store: createMemoryRunStore({ onError }) }),
  shared: false,
  faults: false,
  nulInText: 'kept',
});
