export { MemoryDeliveryQueue } from './memory-delivery-queue.js';
