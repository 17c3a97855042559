// Runs the official Chainhook 1.x client's ChainhookEventObserver in a process of its own, as a
// service built on it runs: its undici 5 must not share the test process's global dispatcher
// (stackhooks' undici 7 refuses 5's options). Told its options over IPC; reports each payload it
// accepted, and closes (deregistering its predicates) when told to.
'use strict';
const { ChainhookEventObserver } = require('@hirosystems/chainhook-client');

let observer;
process.on('message', async (message) => {
  if (message.type === 'start') {
    observer = new ChainhookEventObserver(message.observer, message.chainhook);
    await observer.start(message.predicates, async (payload) => {
      process.send({ type: 'payload', payload });
    });
    process.send({ type: 'started' });
  } else if (message.type === 'close') {
    await observer?.close();
    process.send({ type: 'closed' });
    process.disconnect();
  }
});
