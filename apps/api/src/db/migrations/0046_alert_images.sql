-- A chart picture on an alert (issue 31): the public URL of its JPEG, written when published.
ALTER TABLE "alerts" ADD COLUMN "image_url" text;
