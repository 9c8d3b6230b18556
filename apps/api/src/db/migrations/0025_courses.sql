-- Courses (issue 17, ADR 033): a course product's modules, lessons and files, when each lesson opened
-- for an enrolment (drip), and each buyer's progress.
CREATE TABLE "courses" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "courses_product_key" ON "courses" USING btree ("product_id");
--> statement-breakpoint
CREATE TABLE "course_modules" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL REFERENCES "courses"("id") ON DELETE cascade,
	"title" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "course_modules_course_idx" ON "course_modules" USING btree ("course_id","position");
--> statement-breakpoint
CREATE TABLE "course_lessons" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL REFERENCES "courses"("id") ON DELETE cascade,
	"module_id" text NOT NULL REFERENCES "course_modules"("id") ON DELETE cascade,
	"title" text NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"video_id" text,
	"video_key" text,
	"video_type" text,
	"duration_seconds" integer,
	"preview" boolean DEFAULT false NOT NULL,
	"drip_days" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "course_lessons_drip_days_check" CHECK ("drip_days" >= 0)
);
--> statement-breakpoint
CREATE INDEX "course_lessons_course_idx" ON "course_lessons" USING btree ("course_id","position");
--> statement-breakpoint
CREATE UNIQUE INDEX "course_lessons_video_key" ON "course_lessons" USING btree ("video_id");
--> statement-breakpoint
CREATE TABLE "course_files" (
	"id" text PRIMARY KEY NOT NULL,
	"lesson_id" text NOT NULL REFERENCES "course_lessons"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"language" text,
	"label" text,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "course_files_lesson_idx" ON "course_files" USING btree ("lesson_id","position");
--> statement-breakpoint
CREATE TABLE "course_lesson_opens" (
	"entitlement_id" text NOT NULL REFERENCES "entitlements"("id") ON DELETE cascade,
	"lesson_id" text NOT NULL REFERENCES "course_lessons"("id") ON DELETE cascade,
	"opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "course_lesson_opens_pk" PRIMARY KEY("entitlement_id","lesson_id")
);
--> statement-breakpoint
CREATE TABLE "course_progress" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"lesson_id" text NOT NULL REFERENCES "course_lessons"("id") ON DELETE cascade,
	"course_id" text NOT NULL REFERENCES "courses"("id") ON DELETE cascade,
	"position_seconds" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_progress_pk" PRIMARY KEY("user_id","lesson_id")
);
--> statement-breakpoint
CREATE INDEX "course_progress_user_course_idx" ON "course_progress" USING btree ("user_id","course_id","updated_at");
