export {
  createObserverServer,
  listenObserver,
  OBSERVER_BODY_LIMIT,
  type ObserverOptions,
} from './observer-server.js';
