import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

// Only the built shell is cached for now; offline navigation and the outbox come with their own work.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
