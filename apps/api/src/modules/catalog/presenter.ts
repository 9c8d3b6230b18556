import type {
  BundleCard,
  CatalogCategory,
  Price,
  ProductCard,
  ProductKind,
  TradingPlatform,
  VendorProfile,
} from '@tradeshelf/contract';
import type { Storage } from '../../integrations/storage/port.ts';
import { imageFileUrl, presentImage } from '../../platform/images.ts';
import type { BundleCardRow, PriceRow, ProductCardRow, VendorRow } from './repository.ts';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const url = imageFileUrl;

export function presentPrice(r: PriceRow): Price {
  return {
    priceId: r.price_id,
    amount: Number(r.amount),
    currency: r.currency,
    scheme: r.scheme as Price['scheme'],
    interval: r.interval as Price['interval'],
    trialDays: r.trial_days,
  };
}

function vendorOf(
  r: {
    vendor_id: string;
    vendor_url: string;
    display_name: string;
    vendor_avatar_key: string | null;
    verified: boolean;
  },
  storage: Storage,
) {
  return {
    id: r.vendor_id,
    vendorUrl: r.vendor_url,
    displayName: r.display_name,
    avatarUrl: url(storage, r.vendor_avatar_key),
    verified: r.verified,
  };
}

export function presentProductCard(r: ProductCardRow, storage: Storage): ProductCard {
  return {
    id: r.id,
    slug: r.slug,
    kind: r.kind as ProductKind,
    category: r.category as CatalogCategory,
    title: r.title,
    summary: r.summary,
    imageUrl: url(storage, r.image_key),
    image: presentImage(storage, r.image_key),
    platforms: r.platforms as TradingPlatform[],
    tags: r.tags,
    priceId: r.price_id,
    price: presentPrice(r),
    rating: { average: Number(r.rating_average), count: r.rating_count },
    vendor: vendorOf(r, storage),
    isActive: r.is_active,
    purchased: r.purchased,
    createdAt: iso(r.created_at),
  };
}

export function presentBundleCard(r: BundleCardRow, storage: Storage): BundleCard {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    imageUrl: url(storage, r.image_key),
    image: presentImage(storage, r.image_key),
    priceId: r.price_id,
    price: presentPrice(r),
    valueAmount: Number(r.value_amount),
    productIds: r.product_ids,
    vendor: vendorOf(r, storage),
    isActive: r.is_active,
    purchased: r.purchased,
  };
}

export function presentVendor(r: VendorRow, storage: Storage): VendorProfile {
  return {
    id: r.id,
    vendorUrl: r.vendor_url,
    displayName: r.display_name,
    avatarUrl: url(storage, r.avatar_key),
    verified: r.verified,
    bio: r.bio,
    bannerUrl: url(storage, r.banner_key),
    banner: presentImage(storage, r.banner_key),
    socialLinks: r.social_links,
    discordServer: r.discord_server_id
      ? { id: r.discord_server_id, name: r.discord_server_name ?? '' }
      : null,
    productCount: r.product_count,
    createdAt: iso(r.created_at),
  };
}
