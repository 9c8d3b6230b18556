/** Most events one analytics batch may carry. */
export const ANALYTICS_BATCH_MAX = 50;
