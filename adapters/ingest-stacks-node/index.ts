export {
  createObserverServer,
  listenObserver,
  OBSERVER_BODY_LIMIT,
  type ObserverOptions,
} from './observer-server.js';
export { readReplayTsv, type ReplayLine, type ReadProgress } from './replay-tsv.js';
